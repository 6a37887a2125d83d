import Foundation
import ProcessSupport
import Testing

/// `launch(_:_:output:)`: one file holds the child's standard output and error in the order it
/// wrote them (libFuzzer's progress goes to stderr, a target's prints to stdout).
@Suite struct CombinedOutputTests {
    @Test func bothStreamsLandInOneFileInTheOrderWritten() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("combined-\(getpid())").path
        defer { unlink(output) }
        let pid = try ChildProcess.launch("/bin/sh", ["-c", "echo one; echo two >&2; echo three; exit 3"], output: output)
        #expect(ChildProcess.waitForExit(pid) == 3)
        #expect(String(decoding: try ChildProcess.readFile(output), as: UTF8.self) == "one\ntwo\nthree\n")
    }
}
