// The summary of a run that measured only part of what it reads: message counts not recorded,
// a packet without its size, timings without a median, no rows at all. Each missing figure
// reads 0 (or "?" for a size) and the table keeps its narrowest columns.

import Testing
@testable import BenchReport

@Suite struct SummaryFallbackTests {
    @Test func figuresARunDidNotRecordReadZeroAndAPacketWithoutItsSizeReadsAQuestionMark() {
        var r = BenchResults()
        r.sizeFigures = ["default": SizeFigures(
            usedPerMessageAlloc: 3801, usedPerMessageFacade: 850, usedPerMessageProgram: 0, unusedPerMessageAlloc: 3113,
            unusedPerMessageFacade: 1247, onePrunedFacade: 1000, packetAlloc: 327927, packetFile: 329432,
            packetPrunedAlloc: 150159, packetPrunedFile: 150968)]
        r.codec = [PacketTimings(packet: "user", bytes: nil, operations: [
            "facade_encode": ["p25_ns": 1], "oracle_encode": ["p75_ns": 2], "ratio_encode": ["median": 1.5],
        ])]
        let rows = SummaryTable.rows(r).dropFirst(GoalRows.rows(r).count)
        #expect(Array(rows) == [
            SummaryRow(figure: "Facade bytes per used message (SwiftPM default)", value: "850 B (whole binary 3,801 B)", goal: "",
                       method: "(SizeAll - SizeOne) / -1, facade-attributed symbols; whole binary includes call sites"),
            SummaryRow(figure: "Facade bytes per unused message still linked (SwiftPM default)", value: "1,247 B (whole binary 3,113 B)",
                       goal: "", method: "(SizeOne all types - SizeOne pruned) / 0"),
            SummaryRow(figure: "Shipped layer, bundled schema, all types (SwiftPM default)",
                       value: "327,927 B text+data (320.2 KiB); file +329,432 B", goal: "", method: "SizePacket - SizeBaseline, stripped"),
            SummaryRow(figure: "Shipped layer, facades pruned to use (SwiftPM default)",
                       value: "150,159 B text+data (146.6 KiB); file +150,968 B", goal: "", method: "SizePacketPruned - SizeBaseline, stripped"),
            SummaryRow(figure: "Encode user DataPacket (? B): facade vs oracle", value: "0 vs 0 ns/op, oracle/facade x1.50", goal: "",
                       method: "median of interleaved rounds (p25-p75 of ratio 0.00-0.00)"),
        ])
    }

    @Test func aTableWithoutRowsKeepsItsNarrowestColumns() {
        #expect(SummaryTable.terminalLines([]) == ["  figure | value | goal | method", "  ------" + "-+-" + "-----" + "-+-" + "----" + "-+-------"])
    }
}

@Suite struct CodecTimingFallbackTests {
    @Test func aTimingOrRatioWithoutOneOfItsFiguresPrintsZeroThere() {
        let packet = PacketTimings(packet: "x", bytes: 5, operations: [
            "oracle_encode": ["median_ns": 7], "ratio_encode": ["p25": 1], "ratio_decode": ["median": 2, "p75": 3],
        ])
        var lines: [String] = []
        CodecReport.printPacket(packet, [:], print: { lines.append($0) })
        #expect(lines == [
            "\n  packet 'x' (5 bytes encoded)",
            "    operation         median ns/op       p25       p75  instructions/op",
            "    oracle_encode              7.0       0.0       0.0              n/a",
            "    encode: oracle/facade wall-time ratio 0.00 (median of per-round ratios; p25 1.00, p75 0.00)",
            "    decode: oracle/facade wall-time ratio 2.00 (median of per-round ratios; p25 0.00, p75 3.00)",
        ])
    }

    @Test func theOraclesShareOfDecodeSpentBuildingLayoutsFollowsTheRatios() {
        let packet = PacketTimings(packet: "chat", bytes: 356, operations: ["ratio_decode": ["median": 2, "p25": 1, "p75": 3]])
        var lines: [String] = []
        CodecReport.printPacket(packet, ["facade_decode": 200, "oracle_decode": 300, "layout_builds": 100], print: { lines.append($0) })
        #expect(Array(lines.dropFirst(2)) == [
            "    decode: oracle/facade wall-time ratio 2.00 (median of per-round ratios; p25 1.00, p75 3.00); instruction ratio 1.50",
            "    (of the oracle's decode instructions, 33% build MessageLayouts: DynamicMessage.merge makes a new LayoutCache for every call)",
        ])
    }
}
