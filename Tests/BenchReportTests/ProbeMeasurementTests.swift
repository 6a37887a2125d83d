// `wirebench report sizes` and `report peer-sizes` on assembled stand-in probes: each probe is
// stripped into the out folder, `size` gives text and data, `nm -S` of the unstripped probe is
// attributed to groups with the rest of text+data "not in a symbol", `readelf` of the stripped
// copy gives the sections, and SizeOne's symbols missing from SizeOnePruned give the kinds.

import Foundation
import Testing
@testable import BenchReport

@Suite struct ProbeMeasurementTests {
    /// (main, nanopb, data) bytes of each probe; SizeOne also carries a 12-byte rtm_Extra_msg.
    static let layout: [String: (main: Int, nanopb: Int, data: Int)] = [
        "SizeBaseline": (16, 0, 8), "SizePacket": (32, 48, 24), "SizePacketPruned": (32, 48, 16),
        "SizeOne": (40, 48, 32), "SizeOnePruned": (40, 48, 32), "SizeAll": (64, 48, 80),
    ]

    @Test func everyProbeIsStrippedSizedAttributedAndSplitBySection() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let release = folder.path + "/build/release"
        try ProbeObjects.assemble(".text\n.globl pb_decode\npb_decode:\n ret\n", to: release + "/CNanopb.build/pb_decode.c.o")
        for (name, l) in Self.layout {
            try ProbeObjects.assemble(ProbeObjects.source(program: name, main: l.main, nanopb: l.nanopb, data: l.data,
                                                          extra: name == "SizeOne" ? 12 : 0), to: release + "/" + name)
        }
        try FileManager.default.createDirectory(atPath: folder.path + "/out", withIntermediateDirectories: true)
        var results = BenchResults()
        var lines: [String] = []
        try SizeReport.measure([(name: "default", build: folder.path + "/build")], outDirectory: folder.path + "/out",
                               allCount: 11, oneCount: 3, into: &results, print: { lines.append($0) })
        #expect(results.messagesAll == 11 && results.messagesOnePruned == 3)
        let sizes = try #require(results.sizes?["default"])
        for (name, l) in Self.layout {
            let extra = name == "SizeOne" ? 12 : 0
            let text = l.main + l.nanopb + 5, data = l.data + extra
            let e = try #require(sizes.executables[name])
            let stripped = try BinaryTools.fileSize(folder.path + "/out/default-\(name)")
            #expect(e.file == stripped && stripped > 0, "\(name)")
            #expect(e.text == text && e.data == data && e.bss == 0 && e.alloc == text + data, "\(name)")
            #expect(e.group(.program) == l.main && e.group(.nanopbC) == l.nanopb && e.group(.other) == data
                    && e.group(.notInSymbol) == 5, "\(name): \(e.groups)")
            #expect(e.section(.code) == text && e.section(.data) == data && e.section(.dynamicLinking) == 0, "\(name)")
        }
        // SizeOne's symbols SizeOnePruned lacks: rtm_Extra_msg (12) and SizeOne_main (40), whose
        // name differs from SizeOnePruned_main; both are C names.
        #expect(sizes.unusedKinds == [SymbolKind.c.rawValue: 52, SymbolKind.metadata.rawValue: 0,
                                      SymbolKind.staticLets.rawValue: 0, SymbolKind.code.rawValue: 0])
        let derived = try SizeReport.derive(sizes, allCount: 11, oneCount: 3)
        #expect(results.sizeFigures?["default"] == derived)
        #expect(lines.first == "\n  [default] stripped executables (`size`: text includes .rodata and .eh_frame)")
        #expect(lines.count == 8 + 16 + 20)
    }

    /// A stand-in for SizePacket built against SwiftProtobuf: text 70 + 25 + 5 = 100, data 20.
    static func assembledPeer(in folder: ScratchFolder) throws -> String {
        let binary = folder.path + "/peer/SizePacketSwiftProtobuf"
        try ProbeObjects.assemble(ProbeObjects.source(program: "SizePacket", main: 70, nanopb: 25, data: 20), to: binary)
        return binary
    }

    @Test func swiftProtobufsSizeIsWhatItAddsOverTheSameBaselineSetAgainstTheFacades() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let binary = try Self.assembledPeer(in: folder)
        var results = BenchResults()
        results.sizes = ["default": ConfigurationSizes(
            executables: ["SizeBaseline": SizeProbeFixture.probe(file: 100, text: 40, data: 20)], unusedKinds: [:])]
        var figures = SizeProbeFixture.figures
        figures.packetAlloc = 30
        figures.packetPrunedAlloc = 15
        results.sizeFigures = ["default": figures]
        var lines: [String] = []
        try PeerSizeReport.measure([(name: "default", executable: binary)], outDirectory: folder.path,
                                   into: &results, print: { lines.append($0) })
        let file = try BinaryTools.fileSize(folder.path + "/default-SizePacketSwiftProtobuf")
        #expect(results.swiftProtobufSizes == ["default": PeerSize(alloc: 120, added: 60, fileAdded: file - 100,
                                                                   ratioAll: 0.5, ratioPruned: 0.25)])
        #expect(lines == [
            "\n  SwiftProtobuf 1.38.1: the same SizePacket source against protoc-gen-swift's code, vs SizeBaseline",
            "    [default] SwiftProtobuf +60 B text+data (0.1 KiB); facades ÷ SwiftProtobuf: all types 0.50 (goal <= 0.2), "
                + "pruned 0.25 (goal <= 0.1)",
        ])
    }

    @Test func peerSizesWithoutTheFacadesSizesNameTheMissingStep() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let binary = try Self.assembledPeer(in: folder)
        var results = BenchResults()
        #expect(throws: BenchReportError.missingFigure("no stripped SizeBaseline in the results: run `report sizes` first")) {
            try PeerSizeReport.measure([(name: "stripped", executable: binary)], outDirectory: folder.path,
                                       into: &results, print: { _ in })
        }
    }
}
