import Foundation
import ProcessSupport
import Testing

/// `ChildProcess.exitStatus(of:)`, `stop` and `waitForExit`: a running child has no status yet, an
/// ended one reports its exit code (or 128 + the signal that ended it) once, and a process that is
/// not our child reports -1 instead of blocking.
@Suite struct ChildProcessExitStatusTests {
    @Test func aRunningChildHasNoStatusAndAnEndedOneReportsItsExitCode() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("child-status-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The child waits for a file this test creates, so "still running" is certain when polled.
        let gate = dir + "/gate"
        let pid = try ChildProcess.launch(
            "/bin/sh", ["-c", "i=0; while [ ! -e '\(gate)' ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i+1)); done; exit 5"],
            stdout: dir + "/out", stderr: dir + "/err")
        #expect(ChildProcess.exitStatus(of: pid) == nil)
        #expect(FileManager.default.createFile(atPath: gate, contents: nil))
        var status: Int32?
        for _ in 0..<400 where status == nil {  // at most 4 s
            status = ChildProcess.exitStatus(of: pid)
            if status == nil { usleep(10_000) }
        }
        #expect(status == 5)
        // Reaped: the pid is no longer our child.
        #expect(ChildProcess.exitStatus(of: pid) == -1)
        #expect(ChildProcess.waitForExit(pid) == -1)
    }

    @Test func aChildEndedBySignalReportsOneHundredTwentyEightPlusTheSignal() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("child-stop-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pid = try ChildProcess.launch("/bin/sleep", ["5"], stdout: dir + "/out", stderr: dir + "/err")
        #expect(ChildProcess.stop(pid, signal: SIGKILL) == 128 + SIGKILL)
    }

    @Test func aProcessThatIsNotOurChildReportsMinusOne() {
        // pid 1 is never this test process's child.
        #expect(ChildProcess.exitStatus(of: 1) == -1)
        #expect(ChildProcess.waitForExit(1) == -1)
    }
}
