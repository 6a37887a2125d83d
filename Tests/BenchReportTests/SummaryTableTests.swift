import Testing
@testable import BenchReport

/// The one summary table (every goal with "met" / "not met") and the bench section of
/// docs/measurements.md, which only its markers delimit.
@Suite struct SummaryTableTests {
    static func ratios(facadeDecode: Double, cDecode: Double) -> CodecRatios {
        let ops: [String: [String: Double]] = [
            "decode": ["facade": facadeDecode, "c": cDecode, "full": 6464, "lite": 6410, "swiftprotobuf": 23897],
            "encode": ["facade": 25616, "c": 21900, "full": 2337, "lite": 2326, "swiftprotobuf": 10115],
        ]
        return CodecRatios(packets: [PacketInstructions(packet: "chat", bytes: 356, operations: ops),
                                     PacketInstructions(packet: "metrics", bytes: 22137, operations: ops)],
                           fuzzFixed: 0.93, peakMemory: ["input  peak"])
    }

    static func results(facadeDecode: Double = 20785, cDecode: Double = 17988) -> BenchResults {
        var r = BenchResults()
        r.messagesAll = 80
        r.messagesOnePruned = 1
        r.sizeFigures = ["stripped": SizeFigures(
            usedPerMessageAlloc: 3801, usedPerMessageFacade: 849.6, usedPerMessageProgram: 0, unusedPerMessageAlloc: 3113,
            unusedPerMessageFacade: 1247, onePrunedFacade: 1000, packetAlloc: 327927, packetFile: 329432,
            packetPrunedAlloc: 150159, packetPrunedFile: 150968)]
        r.ratios = ratios(facadeDecode: facadeDecode, cDecode: cDecode)
        return r
    }

    @Test func everyGoalOfTheListHasOneRowWithItsVerdict() {
        let rows = GoalRows.rows(Self.results())
        #expect(rows.count == 10, "4 codec goals x 2 packets, facade bytes, fuzz rate")
        let decodeC = rows.first { $0.figure == "Decode ÷ nanopb C, chat packet, 356 B" }
        #expect(decodeC?.value == "**1.16** (20,785 vs 17,988 instructions/op)")
        #expect(decodeC?.goal == "≤ 1.05: not met")
        #expect(rows.first { $0.figure.hasPrefix("Decode ÷ SwiftProtobuf, metrics") }?.goal == "≤ 1.0: met")
        #expect(rows.first { $0.figure.hasPrefix("Encode ÷ SwiftProtobuf, chat") }?.goal == "≤ 1.0: not met")
        #expect(rows.first { $0.figure.hasPrefix("Facade bytes per used message") }?.goal == "≤ 850 B: met")
        #expect(rows.first { $0.figure.hasPrefix("Fuzz target") }?.goal == "≥ 0.9: met")
    }

    @Test func aGoalIsMetAtItsLimitAndNotBeyond() {
        #expect(Goal.atMost(1.05).isMet(by: 1.05))
        #expect(!Goal.atMost(1.05).isMet(by: 1.0501))
        #expect(Goal.atLeast(0.9).isMet(by: 0.9))
        #expect(!Goal.atLeast(0.9).isMet(by: 0.89))
        let met = GoalRows.rows(Self.results(facadeDecode: 18000, cDecode: 18000))
        #expect(met.first { $0.figure.hasPrefix("Decode ÷ nanopb C, chat") }?.goal == "≤ 1.05: met")
    }

    @Test func aGoalThisRunDidNotMeasureStillHasItsRow() {
        let rows = GoalRows.rows(BenchResults())
        #expect(rows.count == 10)
        #expect(rows.allSatisfy { $0.goal.hasSuffix(": not measured") })
    }

    @Test func theSectionReplacesOnlyWhatLiesBetweenTheMarkers() {
        let document = "# Prose\n\nkept\n<!-- bench:begin (old) -->\nold figures\n<!-- bench:end -->\ntail kept\n"
        let section = MeasurementsSection.lines(Self.results(), header: "Measured today.", command: "make bench")
        let written = MeasurementsSection.splice(section, into: document)
        #expect(written.hasPrefix("# Prose\n\nkept\n<!-- bench:begin (written by wirebench run"))
        #expect(written.hasSuffix("<!-- bench:end -->\ntail kept\n"))
        #expect(!written.contains("old figures"))
        #expect(written.contains("| Figure | Value | Goal | Method |"))
        #expect(written.components(separatedBy: "| Figure |").count == 2, "one summary table")
    }

    @Test func peakMemoryFollowsItsHeadingInACodeBlockOnlyWhenMeasured() throws {
        let heading = "Peak memory on the hostile inputs of docs/sanitizers.md (scripts/peak-memory.sh):"
        let section = MeasurementsSection.lines(Self.results(), header: "h", command: "c")
        let at = try #require(section.firstIndex(of: heading))
        #expect(Array(section[(at - 1)...].prefix(6)) == ["", heading, "", "```", "input  peak", "```"])
        for unmeasured in [nil, [String]()] {
            var results = Self.results()
            results.ratios?.peakMemory = unmeasured
            #expect(!MeasurementsSection.lines(results, header: "h", command: "c").contains(heading))
        }
    }

    @Test func aDocumentWithoutMarkersGetsTheSectionAppended() {
        let written = MeasurementsSection.splice(["<!-- bench:begin -->", "x", "<!-- bench:end -->"], into: "# Prose\n\n")
        #expect(written == "# Prose\n\n<!-- bench:begin -->\nx\n<!-- bench:end -->\n")
    }
}
