// `wirebench report ratios` reading the ratio step's folder: iteration counts, one callgrind
// listing per program and packet, the packets' encoded sizes, the fuzz rate and peak memory.
// Counts divide by each program's own iterations; only facade and plain C listings collected
// inside their loops are split; SwiftProtobuf may be missing, the other programs may not.

import Foundation
import Testing
@testable import BenchReport

@Suite struct RatioListingReadingTests {
    static let facadeDecode = "$s10CodecBench16loopFacadeDecodeySiSays5UInt8VG_SitF"
    static let facadeEncode = "$s10CodecBench16loopFacadeEncodeySi_SitF"

    /// chat: every program, SwiftProtobuf included; the facades' listing collected in the loops only
    /// (3,000,000 = both loops), plain C's of the whole program. metrics: no SwiftProtobuf; the
    /// facades' listing has no totals, plain C's is collected in the loops only (40,000 = both loops).
    static let files: [String: String] = [
        "iterations": """
            facade-chat 100
            c-chat 100
            full-chat 200
            lite-chat 200
            swiftprotobuf-chat 100
            facade-metrics 10
            c-metrics 10
            full-metrics 10
            lite-metrics 10
            swiftprotobuf-metrics many
            facade-metrics 999 from an older run

            """,
        "facade-chat.txt": """
            3,000,000 (100.0%)  PROGRAM TOTALS
            2,000,000 (66.67%)  ???:\(facadeDecode) [x]
            1,000,000 (33.33%)  ???:\(facadeEncode) [x]
              800,000 (26.67%)  ???:wp_pb_decode [x]
              100,000 ( 3.33%)  ???:wp_pb_release [x]
               50,000 ( 1.67%)  ???:wp_pb_counted_malloc [x]
              400,000 (13.33%)  ???:wp_pb_encode [x]
              200,000 ( 6.67%)  ???:wp_pb_get_encoded_size [x]
            """,
        "c-chat.txt": """
            10,000,000 (100.0%)  PROGRAM TOTALS
             1,500,000 (15.00%)  ???:loop_decode [x]
               500,000 ( 5.00%)  ???:loop_encode [x]
               300,000 ( 3.00%)  ???:wp_pb_decode [x]
            """,
        "full-chat.txt": " 4,000,000  ???:loop_decode [x]\n 2,000,000  ???:loop_encode [x]\n",
        "lite-chat.txt": " 2,000,000  ???:loop_decode [x]\n 1,000,000  ???:loop_encode [x]\n",
        "swiftprotobuf-chat.txt": """
             1,800,000  ???:$s25codec_speed_swiftprotobuf10loopDecodeySi_SitF [x]
             1,200,000  ???:$s25codec_speed_swiftprotobuf10loopEncodeySi_SitF [x]
            """,
        "facade-metrics.txt": "  50,000  ???:\(facadeDecode) [x]\n  30,000  ???:\(facadeEncode) [x]\n",
        "c-metrics.txt": """
              40,000 (100.0%)  PROGRAM TOTALS
              25,000  ???:loop_decode [x]
              15,000  ???:loop_encode [x]
              10,000  ???:wp_pb_decode [x]
               2,000  ???:wp_pb_release [x]
               1,000  ???:wp_pb_counted_free [x]
               5,000  ???:wp_pb_encode [x]
            """,
        "full-metrics.txt": " 10,000  ???:loop_decode [x]\n 7,000  ???:loop_encode [x]\n",
        "lite-metrics.txt": " 5,000  ???:loop_decode [x]\n 3,000  ???:loop_encode [x]\n",
        "chat.bin": String(repeating: "x", count: 356),
        "metrics.bin": String(repeating: "y", count: 40),
        "fuzz-rate.txt": "fuzz-rate: fixed inputs, facade / plain C throughput = 0.8\n",
        "peak-memory.txt": "input  peak\nnested  +73 MiB\n\n",
    ]

    @Test func eachProgramsLoopsAreDividedByItsOwnIterationsAndLoopOnlyListingsAreSplit() throws {
        let work = try ScratchFolder(Self.files)
        defer { work.remove() }
        let ratios = try RatioReport.read(work: work.path)
        let chat = PacketInstructions(
            packet: "chat", bytes: 356,
            operations: ["decode": ["facade": 20_000, "c": 15_000, "full": 20_000, "lite": 10_000, "swiftprotobuf": 18_000],
                         "encode": ["facade": 10_000, "c": 5_000, "full": 10_000, "lite": 5_000, "swiftprotobuf": 12_000]],
            splits: ["decode": ["facade": OperationSplit(loop: 20_000, nanopb: 9_000, allocator: 500)],
                     "encode": ["facade": OperationSplit(loop: 10_000, nanopb: 6_000, allocator: 0)]])
        let metrics = PacketInstructions(
            packet: "metrics", bytes: 40,
            operations: ["decode": ["facade": 5_000, "c": 2_500, "full": 1_000, "lite": 500],
                         "encode": ["facade": 3_000, "c": 1_500, "full": 700, "lite": 300]],
            splits: ["decode": ["c": OperationSplit(loop: 2_500, nanopb: 1_200, allocator: 100)],
                     "encode": ["c": OperationSplit(loop: 1_500, nanopb: 500, allocator: 0)]])
        #expect(ratios.packets == [chat, metrics])
        #expect(ratios.fuzzFixed == 0.8)
        #expect(ratios.peakMemory == ["input  peak", "nested  +73 MiB"])
    }

    @Test func listingsOfTheWholeProgramLeaveThePacketWithoutSplits() throws {
        var files = Self.files
        files["facade-chat.txt"] = files["facade-chat.txt"]!.replacingOccurrences(of: "3,000,000 (100.0%)", with: "9,000,000 (100.0%)")
        files["c-metrics.txt"] = files["c-metrics.txt"]!.replacingOccurrences(of: "PROGRAM TOTALS", with: "other")
        let work = try ScratchFolder(files)
        defer { work.remove() }
        let ratios = try RatioReport.read(work: work.path)
        #expect(ratios.packets.map(\.splits) == [nil, nil])
    }

    @Test func aProgramOtherThanSwiftProtobufWithoutAnIterationCountStopsTheReport() throws {
        var files = Self.files
        files["iterations"] = files["iterations"]!.replacingOccurrences(of: "c-chat 100\n", with: "")
        let work = try ScratchFolder(files)
        defer { work.remove() }
        #expect(throws: BenchReportError.missingFigure("no iteration count of c-chat in \(work.path)/iterations")) {
            try RatioReport.read(work: work.path)
        }
    }

    @Test func aListingWithoutOneOfItsLoopsStopsTheReportNamingTheLoopAndTheFile() throws {
        var files = Self.files
        files["full-chat.txt"] = " 4,000,000  ???:loop_decode [x]\n"
        let work = try ScratchFolder(files)
        defer { work.remove() }
        #expect(throws: BenchReportError.missingFigure("no loop_encode in \(work.path)/full-chat.txt")) {
            try RatioReport.read(work: work.path)
        }
    }

    @Test func withoutTheFuzzRateAndPeakMemoryFilesThoseFiguresAreAbsent() throws {
        var files = Self.files
        files["fuzz-rate.txt"] = nil
        files["peak-memory.txt"] = nil
        let work = try ScratchFolder(files)
        defer { work.remove() }
        let ratios = try RatioReport.read(work: work.path)
        #expect(ratios.fuzzFixed == nil && ratios.peakMemory == nil)
    }
}
