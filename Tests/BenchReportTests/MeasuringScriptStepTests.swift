// The ratio step's measuring scripts (fuzz rate, peak memory), with /bin/sh stand-ins: a knob
// set to 0 removes an older table without making the command; otherwise the table is the
// command's stdout, its stderr goes to the matching .log, and a failure throws with that log.
// Each test also reads every line the step printed: the knob's line, or the announcement and the
// table indented.

import Foundation
import Testing
@testable import BenchReport

@Suite struct MeasuringScriptStepTests {
    @Test func aKnobTurnedOffRemovesTheOldTableAndNeverMakesTheCommand() throws {
        let folder = try ScratchFolder(["peak-memory.txt": "old table\n"])
        defer { folder.remove() }
        var made = false
        let printed = PrintedLines()
        try RatioStep.runScript(enabled: false, knob: "BENCH_PEAK_MEMORY", what: "peak memory",
                                table: folder.path + "/peak-memory.txt", announce: "measuring",
                                command: { made = true; return ["true"] }, environment: [:], clock: printed.clock())
        #expect(!made)
        #expect(printed.lines() == ["  BENCH_PEAK_MEMORY=0: peak memory not measured"])
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/peak-memory.txt"))
    }

    @Test func theTableIsTheCommandsStdoutAndItsStderrGoesToTheLog() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let printed = PrintedLines()
        try RatioStep.runScript(enabled: true, knob: "K", what: "w", table: folder.path + "/fuzz-rate.txt", announce: "measuring",
                                command: { ["sh", "-c", "echo row $TABLE_KNOB; echo diagnostics >&2"] },
                                environment: ["TABLE_KNOB": "one"], clock: printed.clock())
        #expect(printed.lines() == ["[test] measuring", "  row one"])
        #expect(try folder.read("fuzz-rate.txt") == "row one\n")
        #expect(try folder.read("fuzz-rate.log") == "diagnostics\n")
    }

    @Test func aFailingScriptThrowsItsCommandWithTheTailOfItsLog() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let printed = PrintedLines()
        #expect(throws: BenchRunError.stepFailed(what: "sh -c echo why >&2; exit 1 failed", logTail: "why")) {
            try RatioStep.runScript(enabled: true, knob: "K", what: "w", table: folder.path + "/t.txt", announce: "measuring",
                                    command: { ["sh", "-c", "echo why >&2; exit 1"] }, environment: [:], clock: printed.clock())
        }
        #expect(printed.lines() == ["[test] measuring", "  "], "an empty table is echoed as one empty line, indented")
    }

    /// A script that removed its own table (a cleanup gone wrong) still gets its failure and log
    /// reported: the missing table shows as nothing.
    @Test func aTableTheScriptRemovedShowsAsNothingAndItsFailureIsStillThrown() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let printed = PrintedLines()
        let table = folder.path + "/t.txt"
        #expect(throws: BenchRunError.stepFailed(what: "sh -c rm -f \"$0\"; echo gone >&2; exit 1 \(table) failed", logTail: "gone")) {
            try RatioStep.runScript(enabled: true, knob: "K", what: "w", table: table, announce: "measuring",
                                    command: { ["sh", "-c", "rm -f \"$0\"; echo gone >&2; exit 1", table] }, environment: [:],
                                    clock: printed.clock())
        }
        #expect(printed.lines() == ["[test] measuring", "  "])
        #expect(!FileManager.default.fileExists(atPath: table))
    }
}
