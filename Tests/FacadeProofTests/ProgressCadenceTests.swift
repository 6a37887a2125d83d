@testable import FacadeProof
import Testing

/// Which counts of a long step get a progress line (ProgressCadence), and the proof runner's line.
@Suite struct ProgressCadenceTests {
    private func shown(_ total: Int, times: Int) -> [Int] {
        (1...total).filter { ProgressCadence.shows(done: $0, of: total, times: times) }
    }

    @Test func progressIsShownEveryTotalOverTimesCountsAndAtTheEnd() {
        #expect(shown(25, times: 10) == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 25])
        #expect(shown(12, times: 5) == [2, 4, 6, 8, 10, 12])
        #expect(shown(50, times: 5) == [10, 20, 30, 40, 50])
        #expect(shown(20, times: 10) == Array(stride(from: 2, through: 20, by: 2)))
    }

    @Test func fewerCountsThanProgressLinesShowEveryCount() {
        #expect(shown(3, times: 5) == [1, 2, 3])
        #expect(shown(9, times: 10) == Array(1...9))
    }

    @Test func theProofRunnerSaysItsStepAboutTenTimesAndAlwaysAtTheEnd() {
        let lines = (1...42).compactMap { ProofRunnerCommand.progressLine("exemplars", done: $0, of: 42) }
        #expect(lines == [4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 42].map { "prove: exemplars \($0)/42" })
    }

    @Test func theRunnersProgressReachesItsOutputOnceWhileALineRepeats() {
        var printed: [String] = []
        let report = ProofRunnerCommand.progressReporter { printed.append($0) }
        for done in [1, 2, 2, 3, 3] { report("mutants", done, 3) }
        report("exemplars", 1, 1)
        report("exemplars", 1, 1)
        report("mutants", 3, 3)  // a later pass over the same step is said again
        #expect(printed == ["prove: mutants 1/3", "prove: mutants 2/3", "prove: mutants 3/3", "prove: exemplars 1/1",
                            "prove: mutants 3/3"])
    }
}
