// The instruction table `wirebench report ratios` prints and writes into docs/measurements.md:
// a row per program measured on every packet, then the facades ÷ each other program, where a
// count a program's listing lacks reads 0 and a missing divisor reads 1.

import Testing
@testable import BenchReport

@Suite struct RatioTableTests {
    @Test func everyProgramMeasuredOnEveryPacketGetsARowAndAMissingCountReadsZero() {
        // SwiftProtobuf is measured on chat only (its peer did not build for metrics): no row.
        // Plain C has no encode count on chat and the facades none on metrics.
        let ratios = CodecRatios(packets: [
            PacketInstructions(packet: "chat", bytes: 356, operations: [
                "decode": ["facade": 1_000, "c": 500, "full": 4_000, "swiftprotobuf": 9_000],
                "encode": ["facade": 800, "full": 1_600],
            ]),
            PacketInstructions(packet: "metrics", bytes: 22_000, operations: [
                "decode": ["facade": 2_000, "c": 4_000, "full": 1_000],
                "encode": ["c": 300, "full": 600],
            ]),
        ], fuzzFixed: nil, peakMemory: nil)
        #expect(RatioReport.tableLines(ratios) == [
            "| instructions per operation (callgrind) | chat packet, 356 B | metrics packet, 22,000 B |",
            "|---|--:|--:|",
            "| decode: facades | 1,000 | 2,000 |",
            "| decode: plain nanopb C (same runtime, generated C, flags) | 500 | 4,000 |",
            "| decode: libprotobuf full (C++, -O2) | 4,000 | 1,000 |",
            "| decode: facades / nanopb C | **2.00** | **0.50** |",
            "| decode: facades / libprotobuf full | **0.25** | **2.00** |",
            "| encode: facades | 800 | 0 |",
            "| encode: plain nanopb C (same runtime, generated C, flags) | 0 | 300 |",
            "| encode: libprotobuf full (C++, -O2) | 1,600 | 600 |",
            "| encode: facades / nanopb C | **800.00** | **0.00** |",
            "| encode: facades / libprotobuf full | **0.50** | **0.00** |",
        ])
    }
}
