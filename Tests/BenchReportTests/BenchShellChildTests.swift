// How `wirebench run` starts its children (stand-ins: /bin/sh one-liners): programs found on
// PATH or taken as paths, output into log files, a failure thrown with the log's tail, standard
// output returned apart from stderr, quiet commands that give nil instead of failing, and the
// indented echo of a table.

import Foundation
import Testing
@testable import BenchReport

@Suite struct BenchShellChildTests {
    @Test func aProgramIsFoundOnPathUnlessItIsAlreadyAPath() throws {
        #expect(try BenchShell.locate("/no/such/dir/sh") == "/no/such/dir/sh")
        let sh = try BenchShell.locate("sh")
        #expect(sh.hasPrefix("/") && sh.hasSuffix("/sh"))
        #expect(throws: BenchRunError.missingTool("wireproof-no-such-tool")) { try BenchShell.locate("wireproof-no-such-tool") }
    }

    @Test func statusReturnsTheExitCodeWithStdoutAndStderrInTheLogAndTheEnvironmentPassed() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let status = try BenchShell.status(["sh", "-c", "echo out $BENCH_KNOB; echo err >&2; exit 3"], log: folder.path + "/log",
                                           environment: ["BENCH_KNOB": "seven"])
        #expect(status == 3)
        #expect(try folder.read("log") == "out seven\nerr\n")
    }

    @Test func aFailedRunThrowsItsFailureWithTheTailOfItsLogAndASucceededOneDoesNot() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let log = folder.path + "/log"
        #expect(throws: BenchRunError.stepFailed(what: "the step failed", logTail: "two\nthree")) {
            try BenchShell.run(["sh", "-c", "echo one; echo two; echo three; exit 1"], log: log,
                               failure: "the step failed", tailLines: 2)
        }
        try BenchShell.run(["sh", "-c", "echo fine"], log: log, failure: "unexpected")
        #expect(try folder.read("log") == "fine\n")
    }

    @Test func outputReturnsStdoutOnlyKeepsStderrInTheLogAndLeavesNoStdoutFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let log = folder.path + "/log"
        #expect(try BenchShell.output(["sh", "-c", "echo result; echo noise >&2"], log: log, failure: "x") == "result\n")
        #expect(try folder.read("log") == "noise\n")
        #expect(!FileManager.default.fileExists(atPath: log + ".stdout"))
        #expect(throws: BenchRunError.stepFailed(what: "no result", logTail: "why")) {
            try BenchShell.output(["sh", "-c", "echo partial; echo why >&2; exit 2"], log: log, failure: "no result")
        }
    }

    @Test func quietOutputIsTrimmedStdoutOrNilWhenTheCommandFailsOrIsMissing() {
        #expect(BenchShell.quietOutput(["sh", "-c", "echo '  Swift 6.3  '; echo"]) == "Swift 6.3")
        #expect(BenchShell.quietOutput(["sh", "-c", "echo partial; exit 1"]) == nil)
        #expect(BenchShell.quietOutput(["wireproof-no-such-tool"]) == nil)
    }

    @Test func echoedLinesAreIndentedWithoutAnExtraLastLineAndSkippedLinesLeftOut() {
        #expect(BenchShell.indentedLines("a\n\nb\n") == ["  a", "  ", "  b"])
        #expect(BenchShell.indentedLines("a\nb") == ["  a", "  b"])
        #expect(BenchShell.indentedLines("keep\n# drop\nkeep too\n", skip: { $0.hasPrefix("#") }) == ["  keep", "  keep too"])
    }

    @Test func writingCreatesTheFoldersOfThePath() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try BenchShell.write("text\n", to: folder.path + "/a/b/file.txt")
        #expect(try folder.read("a/b/file.txt") == "text\n")
    }
}
