// Runs one judging step: a shell command in the scratch copy, its output appended to the log, with
// a time limit. The step's shell leads a session of its own, and a step out of time has its whole
// session killed: killing its process group is not enough, since swift test starts the test binary
// in a group of its own, and a timed-out mutant's endless loop kept spinning, slowing every later step.

import Foundation

public enum StepOutcome: String, Sendable {
    case ok, failed, timeout
}

public struct StepRunner: Sendable {
    /// Where steps run, and the log every step's command and output are appended to.
    public let directory: String
    public let logfile: String

    public init(directory: String, logfile: String) {
        self.directory = directory; self.logfile = logfile
    }

    /// Runs `command` with `bash -c`; with `retryTimeout`, a step that runs out of time is run once
    /// more with twice the limit before it counts as timed out, so a machine that was busy for a
    /// moment does not turn a survivor into a "timed out" (a kill).
    public func run(_ command: String, limit: Double, retryTimeout: Bool = false) -> StepOutcome {
        let outcome = runOnce(command, limit: limit)
        guard outcome == .timeout && retryTimeout else { return outcome }
        append(String(format: "\n(timed out after %.0f s; once more with %.0f s)\n", limit, 2 * limit))
        return runOnce(command, limit: 2 * limit)
    }

    public func append(_ text: String) {
        guard let handle = FileHandle(forWritingAtPath: logfile) else { return }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
    }

    func runOnce(_ command: String, limit: Double) -> StepOutcome {
        append("\n$ \(command)\n")
        let started = Date()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logfile, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none); sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        // POSIX_SPAWN_SETSID (glibc 2.26; not imported into Swift): the child leads a new session,
        // whose id is its process id.
        let setsid: Int32 = 0x80
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | setsid))
        // CI is emptied (the suites' CI-only behaviour is not what a mutant is judged by);
        // WIREPROOF_MUTATION tells a suite it runs under this tool.
        let words: [String] = ["/usr/bin/env", "-C", directory, "CI=", "WIREPROOF_MUTATION=1", "/bin/bash", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, environ) == 0 else {
            append("(cannot start the step)\n")
            return .failed
        }
        var outcome = StepOutcome.timeout
        while Date().timeIntervalSince(started) < limit {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { outcome = status == 0 ? .ok : .failed; break }
            if reaped == -1 && errno != EINTR { outcome = .failed; break }
            usleep(100_000)
        }
        if outcome == .timeout {
            StepRunner.killSession(pid)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        append("(\(outcome.rawValue) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s)\n")
        return outcome
    }

    /// Kills every process of session `session`, sweeping /proc until none is found (a process may
    /// fork while /proc is read), five sweeps at most.
    public static func killSession(_ session: pid_t) {
        for _ in 0..<5 {
            var found = 0
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { continue }
                // After the command name (in parentheses, may hold spaces): state, ppid, pgrp, session.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 3, fields[0] != "Z", Int32(fields[3]) == session else { continue }
                found += 1
                kill(pid, SIGKILL)
            }
            if found == 0 { return }
        }
    }
}
