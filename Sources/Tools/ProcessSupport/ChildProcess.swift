import Foundation

/// Runs a child process with `posix_spawn`, its standard streams redirected to files, and waits
/// for it. Foundation's `Process` is not used: in swift-corelibs-foundation (Swift 6.3) every
/// `Process` and the file handles it holds leak, which LeakSanitizer reports and which would fail
/// every sanitizer run of the suites that start protoc.
///
/// Streams go through files, never pipes, so a large output cannot deadlock on a full pipe.
public enum ChildProcess {
    /// The first executable `name` in the folders of `path` (this process's PATH unless given;
    /// `/usr/bin` when it is unset), or nil: the one rule by which the proof and the generator find
    /// protoc, so a stand-in first on PATH replaces every protoc they run.
    public static func executableOnPath(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        (path ?? "/usr/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The protoc every step runs: the first on `path` (this process's PATH unless given), else
    /// Debian's /usr/bin/protoc, whose absence the step that runs it then reports.
    public static func protoc(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String {
        executableOnPath("protoc", path: path) ?? "/usr/bin/protoc"
    }

    /// What a finished child produced.
    public struct Result: Sendable {
        /// The exit code, or 128 + the signal number when a signal ended the child.
        public let status: Int32
        public let stdout: [UInt8]
        public let stderr: [UInt8]
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Why a child could not be run (as opposed to running and failing).
    public struct LaunchError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Runs `executable` (a path, or a name on the child's PATH) with `arguments` in `directory`
    /// (default: the current one), with `environment` added to the caller's, feeding `input` on
    /// stdin; blocks the calling thread until the child exits.
    public static func run(
        _ executable: String, _ arguments: [String], input: [UInt8] = [], in directory: String? = nil,
        environment: [String: String] = [:]
    ) throws(LaunchError) -> Result {
        let files = try ScratchFiles(input: input)
        defer { files.remove() }
        let pid = try spawn(executable, arguments, files, directory, environment: environment)
        let status = waitForExit(pid)
        return Result(status: status, stdout: try readFile(files.stdout), stderr: try readFile(files.stderr))
    }

    /// As `run`, but waits on a Dispatch thread, so concurrent runs never block the cooperative
    /// thread pool.
    public static func run(
        _ executable: String, _ arguments: [String], input: [UInt8] = [], in directory: String? = nil
    ) async throws(LaunchError) -> Result {
        let files = try ScratchFiles(input: input)
        defer { files.remove() }
        let pid = try spawn(executable, arguments, files, directory)
        let status = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: waitForExit(pid)) }
        }
        return Result(status: status, stdout: try readFile(files.stdout), stderr: try readFile(files.stderr))
    }

    /// Runs `executable` with the caller's stdout and stderr (so its progress shows as it happens),
    /// stdin from /dev/null, in `directory`, with `environment` added to the caller's; blocks until
    /// it exits and returns its status (128 + signal when a signal ended it).
    public static func runShowingOutput(
        _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
    ) throws(LaunchError) -> Int32 {
        try runAndWait(executable, arguments, directory: directory, environment: environment, log: nil, stderr: nil)
    }

    /// Runs `executable` with stdin from /dev/null and stdout and stderr both into the file at `log`
    /// (created or truncated; one open file, so the two streams interleave as a shell's `> log 2>&1`
    /// would), with `environment` added to the caller's; blocks until it exits and returns its
    /// status (128 + signal when a signal ended it). With `stderr`, stderr goes into that file
    /// instead (created or truncated), so `log` holds the child's stdout alone.
    public static func runIntoLog(
        _ executable: String, _ arguments: [String], log: String, stderr: String? = nil, environment: [String: String] = [:]
    ) throws(LaunchError) -> Int32 {
        try runAndWait(executable, arguments, directory: nil, environment: environment, log: log, stderr: stderr)
    }

    /// As `runIntoLog`, in `directory`, but in the background: returns the child's process id as
    /// soon as it started (a caller can read `log` while it grows). The caller owns the child: it
    /// must reap it with `exitStatus(of:)`, `waitForExit` or `stop(_:signal:)`.
    public static func launchIntoLog(
        _ executable: String, _ arguments: [String], log: String, in directory: String? = nil, environment: [String: String] = [:]
    ) throws(LaunchError) -> pid_t {
        try spawnWithStreams(executable, arguments, directory: directory, environment: environment, log: log, stderr: nil)
    }

    /// Starts `executable` (in `directory`, with `environment` added to the caller's), stdin from
    /// /dev/null, stdout and stderr the caller's or into `log` (stderr into `stderr` when given), and
    /// waits for it.
    private static func runAndWait(
        _ executable: String, _ arguments: [String], directory: String?, environment: [String: String], log: String?,
        stderr: String?
    ) throws(LaunchError) -> Int32 {
        waitForExit(try spawnWithStreams(executable, arguments, directory: directory, environment: environment, log: log, stderr: stderr))
    }

    /// Starts `executable` as `runAndWait` describes; returns its process id without waiting.
    private static func spawnWithStreams(
        _ executable: String, _ arguments: [String], directory: String?, environment: [String: String], log: String?,
        stderr: String?
    ) throws(LaunchError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let log {
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if let stderr {
                posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            } else {
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
            }
        }
        return try spawnWithCleanSignals(executable, arguments, environment: environment, directory: directory, &actions)
    }

    /// Three temporary files: the child's stdin (holding `input`), stdout and stderr.
    private struct ScratchFiles {
        let stdin: String, stdout: String, stderr: String

        init(input: [UInt8]) throws(LaunchError) {
            let base = NSTemporaryDirectory() + "wireproof-child-" + UUID().uuidString
            stdin = base + ".in"; stdout = base + ".out"; stderr = base + ".err"
            guard FileManager.default.createFile(atPath: stdin, contents: Data(input)) else {
                throw LaunchError(description: "cannot write \(stdin)")
            }
        }

        func remove() { for path in [stdin, stdout, stderr] { unlink(path) } }
    }

    /// How often a spawn refused with ETXTBSY is tried again (10 ms apart).
    static let busyRetries = 100

    /// posix_spawn of `executable` (a path, or a name looked up on the child's PATH) with
    /// `arguments`, this process's environment with `environment` set over it, in `directory`
    /// (default: this process's), with every signal unblocked and at its default action in the
    /// child. Without the signal reset a child inherits the spawning thread's mask and ignored
    /// signals: Dispatch's worker threads block SIGTERM (so `stop(_:)` could wait for ever on a
    /// child that never sees it), and the transport ignores SIGPIPE. No helper process (`env`)
    /// stands in between, so the program's own exec is the one the ETXTBSY retry below sees.
    private static func spawnWithCleanSignals(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        _ actions: inout posix_spawn_file_actions_t
    ) throws(LaunchError) -> pid_t {
        let program = try programPath(executable, environment: environment)
        if let directory { try addChangeDirectory(&actions, directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // argv is a NUL-terminated array of C strings, strdup'd here and freed after the spawn
        // (posix_spawn has copied them into the child by the time it returns).
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.isEmpty ? nil : environmentStrings(adding: environment).map { strdup($0) } + [nil]
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        // A program written a moment ago cannot be executed while any process holds it open for
        // writing (ETXTBSY): a child that another thread of this process forked while the file was
        // open inherits the descriptor until it execs. That lasts microseconds, so the spawn is
        // retried, for at most `busyRetries` × 10 ms.
        var error = spawnOnce(&pid, program, &actions, &attributes, argv, envp)
        for _ in 0..<busyRetries where error == ETXTBSY {
            usleep(10_000)
            error = spawnOnce(&pid, program, &actions, &attributes, argv, envp)
        }
        guard error == 0 else {
            throw LaunchError(description: "cannot start \(executable): \(String(cString: strerror(error)))")
        }
        return pid
    }

    private static func spawn(
        _ executable: String, _ arguments: [String], _ files: ScratchFiles, _ directory: String?,
        environment: [String: String] = [:]
    ) throws(LaunchError) -> pid_t {
        try spawn(executable, arguments, stdin: files.stdin, stdout: files.stdout, stderr: files.stderr, directory,
                  environment: environment)
    }

    private static func spawn(
        _ executable: String, _ arguments: [String], stdin: String, stdout: String, stderr: String, _ directory: String?,
        environment: [String: String] = [:]
    ) throws(LaunchError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        return try spawnWithCleanSignals(executable, arguments, environment: environment, directory: directory, &actions)
    }

    /// Starts `executable` in the background, stdin from /dev/null, stdout and stderr into the
    /// files at `stdout` and `stderr` (created or truncated); returns its process id. The caller
    /// owns the child: it must reap it with `exitStatus(of:)` or `stop(_:signal:)`.
    public static func launch(
        _ executable: String, _ arguments: [String], stdout: String, stderr: String
    ) throws(LaunchError) -> pid_t {
        try spawn(executable, arguments, stdin: "/dev/null", stdout: stdout, stderr: stderr, nil)
    }

    /// A launched child whose standard input and output are pipes to this process.
    public struct PipedChild: Sendable {
        public let pid: pid_t
        /// The write end of the child's stdin.
        public let input: Int32
        /// The read end of the child's stdout.
        public let output: Int32
    }

    /// Starts `executable` with its stdin and stdout connected to pipes (stderr inherited). The
    /// caller owns the child and both descriptors: close them, then reap it with `stop` or
    /// `waitForExit`. This process's ends are close-on-exec, so no other child inherits them.
    public static func launchPiped(_ executable: String, _ arguments: [String]) throws(LaunchError) -> PipedChild {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw LaunchError(description: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw LaunchError(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // dup2 in the child clears close-on-exec on 0 and 1; the originals close on exec.
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        let pid: pid_t
        do { pid = try spawnWithCleanSignals(executable, arguments, &actions) } catch {
            for fd in toChild + fromChild { close(fd) }
            throw error
        }
        close(toChild[0]); close(fromChild[1])
        return PipedChild(pid: pid, input: toChild[1], output: fromChild[0])
    }

    /// The exit status of a launched child (as `Result.status`) once it has ended and been reaped
    /// here; nil while it still runs.
    public static func exitStatus(of pid: pid_t) -> Int32? {
        var status: Int32 = 0
        var reaped = waitpid(pid, &status, WNOHANG)
        while reaped == -1 && errno == EINTR { reaped = waitpid(pid, &status, WNOHANG) }
        if reaped == 0 { return nil }
        return reaped == pid ? decode(status) : -1
    }

    /// Sends `signal` to a launched child and waits for it to end; returns its exit status.
    public static func stop(_ pid: pid_t, signal: Int32 = SIGTERM) -> Int32 {
        kill(pid, signal)
        return waitForExit(pid)
    }

    /// Waits for `pid`, retrying on EINTR; returns its exit status (128 + the signal that ended it).
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return -1 }
        }
        return decode(status)
    }

    /// A wait status as an exit code, or 128 + the signal, without the C macros Swift cannot import.
    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// The file at `path` as UTF-8 text (invalid sequences repaired), read as `readFile` reads it.
    public static func readText(_ path: String) throws(LaunchError) -> String {
        String(decoding: try readFile(path), as: UTF8.self)
    }

    /// The whole content of the file at `path` (a file a child wrote). stdio, not Foundation:
    /// FoundationEssentials (Swift 6.3.1) leaks a 4 KiB buffer on every read of an empty file,
    /// whichever API reads it (`String(contentsOfFile:)`, `Data(contentsOf:)`,
    /// `FileManager.contents(atPath:)`), and LeakSanitizer reports it.
    public static func readFile(_ path: String) throws(LaunchError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw LaunchError(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes.append(contentsOf: chunk[0..<count])
            if count < chunk.count {
                if ferror(file) != 0 { throw LaunchError(description: "cannot read \(path)") }
                return bytes
            }
        }
    }
}
