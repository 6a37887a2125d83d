// The summary of a run that measured only part of what it reads: message counts not recorded,
// a packet without its size, timings without a median, no rows at all. Each missing figure
// reads 0 (or "?" for a size) and the table keeps its narrowest columns.

import Testing
@testable import BenchReport

@Suite struct SummaryFallbackTests {
    static let figures = SizeFigures(
        usedPerMessageAlloc: 3801, usedPerMessageFacade: 850, usedPerMessageProgram: 0, unusedPerMessageAlloc: 3113,
        unusedPerMessageFacade: 1247, onePrunedFacade: 1000, packetAlloc: 327927, packetFile: 329432,
        packetPrunedAlloc: 150159, packetPrunedFile: 150968)

    /// The size rows of `figures` for one configuration: used (not for the full dead strip, whose
    /// figure is a goal row), unused, the shipped layer with all types and pruned.
    static func sizeRows(_ label: String, used: String?, unused: String) -> [SummaryRow] {
        (used.map { [SummaryRow(figure: "Facade bytes per used message (\(label))", value: "850 B (whole binary 3,801 B)", goal: "",
                                method: "(SizeAll - SizeOne) / \($0), facade-attributed symbols; whole binary includes call sites")] } ?? []) + [
            SummaryRow(figure: "Facade bytes per unused message still linked (\(label))", value: "1,247 B (whole binary 3,113 B)",
                       goal: "", method: "(SizeOne all types - SizeOne pruned) / \(unused)"),
            SummaryRow(figure: "Shipped layer, bundled schema, all types (\(label))",
                       value: "327,927 B text+data (320.2 KiB); file +329,432 B", goal: "", method: "SizePacket - SizeBaseline, stripped"),
            SummaryRow(figure: "Shipped layer, facades pruned to use (\(label))",
                       value: "150,159 B text+data (146.6 KiB); file +150,968 B", goal: "", method: "SizePacketPruned - SizeBaseline, stripped"),
        ]
    }

    @Test func figuresARunDidNotRecordReadZeroAndAPacketWithoutItsSizeReadsAQuestionMark() {
        var r = BenchResults()
        r.sizeFigures = ["default": Self.figures]
        r.codec = [PacketTimings(packet: "user", bytes: nil, operations: [
            "facade_encode": ["p25_ns": 1], "oracle_encode": ["p75_ns": 2], "ratio_encode": ["median": 1.5],
        ])]
        let rows = SummaryTable.rows(r).dropFirst(GoalRows.rows(r).count)
        #expect(Array(rows) == Self.sizeRows("SwiftPM default", used: "-1", unused: "0") + [
            SummaryRow(figure: "Encode user DataPacket (? B): facade vs oracle", value: "0 vs 0 ns/op, oracle/facade x1.50", goal: "",
                       method: "median of interleaved rounds (p25-p75 of ratio 0.00-0.00)"),
        ])
    }

    @Test func aWholeRunHasTheRuntimeSizeSwiftProtobufAndInstructionRowsAfterItsGoals() {
        var r = BenchResults()
        r.runtimeLines = RuntimeLineCount(lines: 1_234, codeLines: 987, files: 12)
        r.messagesAll = 80
        r.messagesOnePruned = 3
        r.sizeFigures = ["default": Self.figures, "stripped": Self.figures]
        r.swiftProtobufSizes = ["default": PeerSize(alloc: 2_000_000, added: 1_500_000, fileAdded: 1_600_000, ratioAll: 0.22, ratioPruned: 0.1)]
        r.codec = [PacketTimings(packet: "chat", bytes: 356, operations: [
            "facade_decode": ["median_ns": 1_000], "oracle_decode": ["median_ns": 3_000], "ratio_decode": ["median": 3, "p25": 2.5, "p75": 3.5],
        ])]
        r.instructions = ["chat": ["facade_decode": 20_000, "oracle_decode": 90_000]]
        let rows = SummaryTable.rows(r).dropFirst(GoalRows.rows(r).count)
        #expect(Array(rows) == [
            SummaryRow(figure: "NanopbRuntime source lines (code lines)", value: "1,234 (987) in 12 files", goal: "",
                       method: "`wc -l Sources/Shipped/NanopbRuntime/*.swift`; code = not blank, not only a comment"),
        ] + Self.sizeRows("full dead strip", used: nil, unused: "77") + Self.sizeRows("SwiftPM default", used: "79", unused: "77") + [
            SummaryRow(figure: "SwiftProtobuf 1.38.1 in the same program (SwiftPM default)",
                       value: "1,500,000 B text+data (1,464.8 KiB); facades ÷ SwiftProtobuf: all types 0.22, pruned 0.10",
                       goal: "all types ≤ 0.2: not met; pruned ≤ 0.1: met",
                       method: "the SizePacket source against protoc-gen-swift's code - SizeBaseline, stripped"),
            SummaryRow(figure: "Decode chat DataPacket (356 B): facade vs oracle",
                       value: "1,000 vs 3,000 ns/op, oracle/facade x3.00; instructions 20,000 vs 90,000 (x4.50)", goal: "",
                       method: "median of interleaved rounds (p25-p75 of ratio 2.50-3.50)"),
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
