// How every Wireproof command ends when swift-argument-parser stops it before `run()`: one
// convention for protogen, wireproof, netfuzz and wirebench.

import ArgumentParser
import Foundation

public enum CommandExit {
    /// Prints what the parser has to say about `error` and returns the exit status: 0 for
    /// `--help` and `--version` (printed to standard output), 2 for a usage error (the message,
    /// which names the wrong flag or value, then the usage, to standard error), and the parser's
    /// own status for anything else.
    public static func status<Command: ParsableCommand>(for error: any Error, of command: Command.Type) -> Int32 {
        status(for: error, of: command, out: { print($0) }, err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }

    /// As `status(for:of:)`, with the two streams passed in (one call a message, no newline).
    public static func status<Command: ParsableCommand>(
        for error: any Error, of command: Command.Type, out: (String) -> Void, err: (String) -> Void
    ) -> Int32 {
        let message = command.fullMessage(for: error)
        let code = command.exitCode(for: error)
        if code == .success {
            if !message.isEmpty { out(message) }
            return 0
        }
        err(message)
        return code == .validationFailure ? 2 : code.rawValue
    }

    /// Parses `arguments` (without the program name) as `Root`'s command line and runs the chosen
    /// command; returns the exit status. A command reports its own result by throwing `ExitCode`.
    public static func run<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) async -> Int32 {
        do {
            var command = try root.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch {
            return status(for: error, of: root)
        }
    }
}
