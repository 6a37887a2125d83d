// `wirebench report codec` end to end on files: CodecBench's timings and the per-packet callgrind
// listings become the results' `codec` and `instructions`, a packet whose listing names no loop
// gets no instruction entry, and each packet's table ends with its wall-time and instruction ratios.

import Testing
@testable import BenchReport

@Suite struct CodecReportStorageTests {
    static let timeOutput = """
        packet chat: 356 bytes, facade and oracle encodings identical
        RESULT chat facade_encode median_ns 2000 p25_ns 1900 p75_ns 2100
        RESULT chat oracle_encode median_ns 3000 p25_ns 2900 p75_ns 3100
        RESULT chat ratio_encode median 1.5 p25 1.4 p75 1.6
        RESULT user facade_decode median_ns 100 p25_ns 90 p75_ns 110
        RESULT user ratio_decode median 2 p25 1.9 p75 2.1
        """

    @Test func timingsAndLoopCountsAreStoredPerPacketAndPrintedWithTheInstructionRatio() throws {
        let folder = try ScratchFolder([
            "time.txt": Self.timeOutput,
            "listings/chat.txt": """
                 1,800,000 (10.00%)  ???:$s10CodecBench16loopFacadeEncodeySi_SitF [x]
                 4,500,000 (25.00%)  ???:$s10CodecBench16loopOracleEncodeySi_SitF [x]
                """,
            "listings/user.txt": " 9,999 (100.0%)  PROGRAM TOTALS\n",
        ])
        defer { folder.remove() }
        var results = BenchResults()
        var lines: [String] = []
        try CodecReport.report(timeOutput: folder.path + "/time.txt", annotateDirectory: folder.path + "/listings",
                               iterations: 100, into: &results, print: { lines.append($0) })
        #expect(results.codec == CodecReport.parseTimings(Self.timeOutput))
        #expect(results.codec?.map(\.packet) == ["chat", "user"])
        #expect(results.instructions == ["chat": ["facade_encode": 18_000, "oracle_encode": 45_000]])
        #expect(lines == [
            "\n  packet 'chat' (356 bytes encoded)",
            "    operation         median ns/op       p25       p75  instructions/op",
            "    facade_encode          2,000.0   1,900.0   2,100.0           18,000",
            "    oracle_encode          3,000.0   2,900.0   3,100.0           45,000",
            "    encode: oracle/facade wall-time ratio 1.50 (median of per-round ratios; p25 1.40, p75 1.60); instruction ratio 2.50",
            "\n  packet 'user' (? bytes encoded)",
            "    operation         median ns/op       p25       p75  instructions/op",
            "    facade_decode            100.0      90.0     110.0              n/a",
            "    decode: oracle/facade wall-time ratio 2.00 (median of per-round ratios; p25 1.90, p75 2.10)",
        ])
    }

    @Test func aZeroOracleCountGivesNoInstructionRatio() {
        let packet = PacketTimings(packet: "chat", bytes: 1, operations: ["ratio_encode": ["median": 1, "p25": 1, "p75": 1]])
        var lines: [String] = []
        CodecReport.printPacket(packet, ["facade_encode": 100, "oracle_encode": 0], print: { lines.append($0) })
        #expect(lines.last == "    encode: oracle/facade wall-time ratio 1.00 (median of per-round ratios; p25 1.00, p75 1.00)")
    }
}
