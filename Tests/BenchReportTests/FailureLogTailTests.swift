// How much of a failed child's log a bench run shows: the last 20 lines unless the step asks
// for more (a release build shows 40), counted without the log's final line end.

import Foundation
import Testing
@testable import BenchReport

@Suite struct FailureLogTailTests {
    /// The numbers first...last, one a line, as `seq` prints them.
    static func numbers(_ range: ClosedRange<Int>) -> String { range.map(String.init).joined(separator: "\n") }

    @Test func aFailedRunShowsTheLastTwentyLinesOfItsLog() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        #expect(throws: BenchRunError.stepFailed(what: "step failed", logTail: Self.numbers(6...25))) {
            try BenchShell.run(["sh", "-c", "seq 1 25; exit 1"], log: folder.path + "/log", failure: "step failed")
        }
    }

    @Test func aFailedOutputCommandShowsTheLastTwentyLinesOfItsStderr() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        #expect(throws: BenchRunError.stepFailed(what: "no output", logTail: Self.numbers(6...25))) {
            try BenchShell.output(["sh", "-c", "echo kept apart; seq 1 25 >&2; exit 1"], log: folder.path + "/log", failure: "no output")
        }
    }
}

extension FailureLogTailTests {
    @Test func aFailureWhoseLogCannotBeReadSaysOnlyWhatFailed() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let failure = BenchRunError.failed("step failed", log: folder.path + "/never-written.log")
        #expect(failure == .stepFailed(what: "step failed", logTail: ""))
        #expect(failure.description == "step failed")
    }
}
