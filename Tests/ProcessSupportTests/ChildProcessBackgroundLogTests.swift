import Foundation
import ProcessSupport
import Testing

/// `launchIntoLog`: in the background, one file holds the child's standard output and error in the order it
/// wrote them (libFuzzer's progress goes to stderr, a target's prints to stdout).
@Suite struct ChildProcessBackgroundLogTests {
    @Test func bothStreamsLandInOneFileInTheOrderWritten() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("combined-\(getpid())").path
        defer { unlink(output) }
        let pid = try ChildProcess.launchIntoLog("/bin/sh", ["-c", "pwd; echo one; echo two >&2; echo three; exit 3"], log: output, in: "/usr")
        #expect(ChildProcess.waitForExit(pid) == 3)
        #expect(String(decoding: try ChildProcess.readFile(output), as: UTF8.self) == "/usr\none\ntwo\nthree\n")
    }
}
