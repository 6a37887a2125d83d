import Testing
@testable import ProveKit

/// What `wireproof oracle-check` and the oracle step of `wireproof prove` print around the
/// check: which progress counts get a line, and how many disagreements are listed.
@Suite struct OracleCheckPrintedLinesTests {
    private func shown(_ total: Int, times: Int) -> [Int] {
        (1...total).filter { OracleCheckCommand.showsProgress(done: $0, of: total, times: times) }
    }

    @Test func progressIsShownEveryTotalOverTimesCasesAndAtTheEnd() {
        #expect(shown(25, times: 10) == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 25])
        #expect(shown(12, times: 5) == [2, 4, 6, 8, 10, 12])
        #expect(shown(50, times: 5) == [10, 20, 30, 40, 50])
        #expect(shown(20, times: 10) == Array(stride(from: 2, through: 20, by: 2)))
    }

    @Test func fewerCasesThanProgressLinesShowEveryCase() {
        #expect(shown(3, times: 5) == [1, 2, 3])
        #expect(shown(9, times: 10) == Array(1...9))
    }

    @Test func oracleCheckListsTwentyDisagreementsThenHowManyMore() {
        let failures = (1...23).map { "DISAGREE case \($0)" }
        #expect(OracleCheckCommand.failureLines(failures) == Array(failures.prefix(20)) + ["... and 3 more disagreements"])
        let twenty = Array(failures.prefix(20))
        #expect(OracleCheckCommand.failureLines(twenty) == twenty, "exactly twenty: nothing left out, no count line")
        #expect(OracleCheckCommand.failureLines(Array(failures.prefix(21))) == twenty + ["... and 1 more disagreements"])
        #expect(OracleCheckCommand.failureLines([]).isEmpty)
    }

    @Test func proveListsTheFirstTwentyOracleDisagreementsMarkedFail() {
        let failures = (1...21).map { "DISAGREE case \($0)" }
        let lines = Prover.oracleFailureLines(failures)
        #expect(lines.count == 20)
        #expect(lines.first == "FAIL oracle vs protoc: DISAGREE case 1")
        #expect(lines.last == "FAIL oracle vs protoc: DISAGREE case 20")
        #expect(Prover.oracleFailureLines(["one"]) == ["FAIL oracle vs protoc: one"])
    }
}
