import Glibc
import ProcessSupport
import Testing

/// Children start with every signal unblocked and at its default action, whatever the spawning
/// thread blocks or ignores (Dispatch's worker threads block SIGTERM; the transport ignores
/// SIGPIPE). Both tests are bounded: the children end by themselves within 5 s.
@Suite("Child process signals", .serialized)
struct ChildProcessSignalTests {
    @Test func aChildStopsOnSIGTERMEvenWhenTheSpawningThreadBlocksIt() throws {
        var term = sigset_t(), previous = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &term, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let pid = try ChildProcess.launch("/bin/sleep", ["5"], stdout: "/dev/null", stderr: "/dev/null")
        #expect(ChildProcess.stop(pid) == 128 + SIGTERM, "the child must die of SIGTERM, not outlive it")
    }

    @Test func aChildDiesOfSIGPIPEEvenWhenThisProcessIgnoresIt() throws {
        let before = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, before) }
        // A shell started with SIGPIPE ignored could not undo it (POSIX): it would print and exit 0.
        let result = try ChildProcess.run("/bin/sh", ["-c", "kill -s PIPE $$; echo survived"])
        #expect(result.status == 128 + SIGPIPE, "status \(result.status), stdout \(String(decoding: result.stdout, as: UTF8.self))")
    }
}
