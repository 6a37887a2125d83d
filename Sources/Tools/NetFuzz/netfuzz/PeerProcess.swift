import Foundation
import Glibc
import ProofSupport

/// The live peer as a child process: started, watched, restarted after it died or hung. Its stdout
/// and stderr go to numbered log files in the output folder, so a sanitizer report survives the
/// restart and can be copied next to the inputs that caused it.
final class PeerProcess {
    let executable: String
    let arguments: [String]
    let logDirectory: String
    private(set) var pid: pid_t?
    private(set) var ports: [String: UInt16] = [:]
    private(set) var launches = 0
    private(set) var stderrPath = ""

    init(executable: String, arguments: [String], logDirectory: String) {
        self.executable = executable
        self.arguments = arguments
        self.logDirectory = logDirectory
    }

    /// Starts the peer and waits (at most `timeout` seconds) for its ready line.
    func start(timeout: Double) throws(NetFuzzError) {
        launches += 1
        let stdoutPath = "\(logDirectory)/peer-\(launches).stdout"
        stderrPath = "\(logDirectory)/peer-\(launches).stderr"
        let pid: pid_t
        do { pid = try ChildProcess.launch(executable, arguments, stdout: stdoutPath, stderr: stderrPath) }
        catch { throw NetFuzzError.setup("cannot start the peer: \(error)") }
        self.pid = pid
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = (try? String(contentsOfFile: stdoutPath, encoding: .utf8))?
                .split(separator: "\n").first(where: { $0.hasPrefix("wirepeer ready") }) {
                ports = [:]
                for field in line.split(separator: " ") {
                    let parts = field.split(separator: "=", maxSplits: 1)
                    if parts.count == 2, let port = UInt16(parts[1]) { ports[String(parts[0])] = port }
                }
                return
            }
            if let status = ChildProcess.exitStatus(of: pid) {
                self.pid = nil
                throw NetFuzzError.setup("the peer exited with status \(status) before it was ready:\n\(stderrTail())")
            }
            usleep(20_000)
        }
        _ = ChildProcess.stop(pid, signal: SIGKILL)
        self.pid = nil
        throw NetFuzzError.setup("the peer printed no ready line within \(timeout) s:\n\(stderrTail())")
    }

    /// The peer's exit status if it has ended (it is then reaped and forgotten), nil while it runs.
    func exitStatusIfDead() -> Int32? {
        guard let pid else { return -1 }
        guard let status = ChildProcess.exitStatus(of: pid) else { return nil }
        self.pid = nil
        return status
    }

    /// Stops the peer (`signal`, then waits) and returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32? {
        guard let pid else { return nil }
        self.pid = nil
        return ChildProcess.stop(pid, signal: signal)
    }

    /// What to show of the current launch's stderr: a sanitizer report's first lines (the error
    /// and the top frames), else the last lines.
    func stderrSummary() -> String {
        guard let text = try? String(contentsOfFile: stderrPath, encoding: .utf8) else { return "" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if let start = lines.firstIndex(where: { $0.contains("ERROR: ") || $0.contains("Fatal error") }) {
            return lines[start ..< min(lines.count, start + 10)].joined(separator: "\n")
        }
        return lines.suffix(12).joined(separator: "\n")
    }

    /// The last `limit` bytes of the current launch's stderr.
    func stderrTail(limit: Int = 4000) -> String {
        guard let text = try? String(contentsOfFile: stderrPath, encoding: .utf8) else { return "" }
        return String(text.suffix(limit))
    }
}

enum NetFuzzError: Error, CustomStringConvertible {
    case setup(String)
    case usage(String)

    var description: String {
        switch self {
        case .setup(let s): return s
        case .usage(let s): return "usage: \(s)"
        }
    }
}
