// How `wirebench run` starts the programs of `make bench`: every child writes into a log file
// (never a pipe), a failure stops the run with the tail of that log, and progress lines carry
// the seconds since their clock started.

import Foundation
import ProcessSupport

/// Why `wirebench run` stopped.
public enum BenchRunError: Error, CustomStringConvertible, Equatable {
    /// An environment knob holds what it cannot (a count that is not a whole number >= 0).
    case badKnob(name: String, value: String)
    /// A step failed: what failed, and the last lines of its log (empty when it wrote none).
    case stepFailed(what: String, logTail: String)
    /// A program the run needs is not on PATH.
    case missingTool(String)

    public var description: String {
        switch self {
        case .badKnob(let name, let value): return "\(name)=\(value): expected a whole number >= 0"
        case .stepFailed(let what, let tail): return tail.isEmpty ? what : tail + "\n" + what
        case .missingTool(let name): return "\(name) is not on PATH"
        }
    }

    /// The last `count` lines of `text` (a final line end does not start a line).
    public static func tail(_ text: String, lines count: Int) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.suffix(count).joined(separator: "\n")
    }

    /// A failed step, with the last `lines` lines of the log at `log` (when it can be read).
    static func failed(_ what: String, log: String, lines: Int = 20) -> BenchRunError {
        let text = (try? ChildProcess.readFile(log)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return .stepFailed(what: what, logTail: tail(text, lines: lines))
    }
}

/// Progress lines "[NAME   SSs] what", seconds since the clock was made. A step prints every
/// line of its own through `emit` (stdout, flushed), so a test can read all it said.
struct ProgressClock {
    let name: String
    let started = Date()
    let emit: @Sendable (String) -> Void

    init(name: String, emit: @escaping @Sendable (String) -> Void = { print($0); fflush(nil) }) {
        self.name = name
        self.emit = emit
    }

    func line(_ what: String) -> String {
        let seconds = Int(Date().timeIntervalSince(started))
        let padded = String(repeating: " ", count: max(0, 4 - String(seconds).count)) + String(seconds)
        return "[\(name) \(padded)s] \(what)"
    }

    func say(_ what: String) {
        emit(line(what))
    }
}

/// Runs the children of one bench run from the repository root.
struct BenchShell {
    /// Absolute path of `name` (a path with a slash is taken as is).
    static func locate(_ name: String) throws(BenchRunError) -> String {
        if name.contains("/") { return name }
        guard let path = ChildProcess.executableOnPath(name) else { throw .missingTool(name) }
        return path
    }

    /// Runs `command` (first element: the program) with stdout and stderr into `log`; returns its status.
    @discardableResult
    static func status(_ command: [String], log: String, stderr: String? = nil,
                       environment: [String: String] = [:]) throws -> Int32 {
        // What was printed shows before the child's wait, also when stdout is a pipe (`make bench | tee`).
        fflush(nil)
        return try ChildProcess.runIntoLog(try locate(command[0]), Array(command.dropFirst()), log: log, stderr: stderr,
                                           environment: environment)
    }

    /// Runs `command` with output into `log`; a non-zero exit throws `what` with the log's tail.
    static func run(_ command: [String], log: String, failure what: String, tailLines: Int = 20,
                    environment: [String: String] = [:]) throws {
        guard try status(command, log: log, environment: environment) == 0 else {
            throw BenchRunError.failed(what, log: log, lines: tailLines)
        }
    }

    /// Runs `command` and returns its standard output; its stderr goes to `log`. A non-zero exit throws.
    static func output(_ command: [String], log: String, failure what: String) throws -> String {
        let out = log + ".stdout"
        defer { unlink(out) }
        guard try status(command, log: out, stderr: log) == 0 else { throw BenchRunError.failed(what, log: log) }
        return String(decoding: try ChildProcess.readFile(out), as: UTF8.self)
    }

    /// The trimmed standard output of a short command, or nil when it cannot run or fails.
    static func quietOutput(_ command: [String]) -> String? {
        guard let path = try? locate(command[0]),
              let result = try? ChildProcess.run(path, Array(command.dropFirst())), result.status == 0 else { return nil }
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The lines of `text` a step echoes (a final line end does not start a line), those `skip`
    /// rejects left out, each with two spaces in front.
    static func indentedLines(_ text: String, skip: (Substring) -> Bool = { _ in false }) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
            .filter { !skip($0) }.map { "  " + $0 }
    }

    /// Writes `text` to the file at `path`, creating its folder.
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The SHA-1 of `bytes` in hex (sha1sum's, so a stamp written by an earlier run still matches).
    static func digest(_ bytes: [UInt8]) -> String { SHA1.hex(bytes) }

    /// A file a bench step wrote (often empty: an unused timing file), read without Foundation's leak.
    static func read(_ path: String) throws -> String { try ChildProcess.readText(path) }
}
