import Foundation
import ProcessSupport
import Testing

/// `ChildProcess.runIntoLog`: one log holds both streams in the order the child wrote them (as a
/// shell's `> log 2>&1`), a rerun replaces it, and the added environment reaches the child.
@Suite struct ChildProcessLogTests {
    @Test func bothStreamsInterleaveInOneLogThatARerunReplaces() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("child-log-\(getpid()).log").path
        defer { unlink(log) }
        let script = #"echo one; echo two >&2; echo "three $GREETING"; exit 3"#
        #expect(try ChildProcess.runIntoLog("/bin/sh", ["-c", script], log: log, environment: ["GREETING": "hi"]) == 3)
        #expect(String(decoding: try ChildProcess.readFile(log), as: UTF8.self) == "one\ntwo\nthree hi\n")
        #expect(try ChildProcess.runIntoLog("/bin/sh", ["-c", "echo short"], log: log) == 0)
        #expect(String(decoding: try ChildProcess.readFile(log), as: UTF8.self) == "short\n")
    }

    @Test func aSeparateStderrFileLeavesTheLogWithStdoutAlone() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("child-split-\(getpid())").path
        let log = base + ".out", errors = base + ".err"
        defer { unlink(log); unlink(errors) }
        #expect(try ChildProcess.runIntoLog("/bin/sh", ["-c", "echo table; echo progress >&2"], log: log, stderr: errors) == 0)
        #expect(String(decoding: try ChildProcess.readFile(log), as: UTF8.self) == "table\n")
        #expect(String(decoding: try ChildProcess.readFile(errors), as: UTF8.self) == "progress\n")
    }
}
