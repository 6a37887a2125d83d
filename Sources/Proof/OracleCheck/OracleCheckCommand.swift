import Foundation

/// The `wireproof oracle-check` subcommand: argument parsing, progress and the summary table.
/// `main.swift` only forwards the process arguments here and exits with the returned status.
public enum WireproofCommand {
    public static let usage = """
        usage: wireproof prove --proto-dir DIR [...]   (the whole proof; `wireproof prove` alone for its options)
               wireproof oracle-check --proto-dir DIR [--seed N] [--random N] [--jobs N] [--protoc PATH]

          oracle-check  compile DIR's .proto files with protoc, cross-check the oracle against protoc
                        on every exemplar (and N random messages from seed N), print a summary table.
                        Exit status: 0 all agreed, 1 a disagreement, 2 usage or setup error.
        """

    /// Runs the command line `arguments` (without the executable name); returns the exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        guard arguments.first == "oracle-check" else {
            printError(usage)
            return 2
        }
        var configuration = OracleCheckConfiguration(protoDirectory: "Protos")
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else {
                printError("missing value for \(flag)\n\(usage)")
                return 2
            }
            switch flag {
            case "--proto-dir": configuration.protoDirectory = value
            case "--protoc": configuration.protocPath = value
            case "--seed", "--random", "--jobs":
                guard let number = UInt64(value) else {
                    printError("\(flag) needs a non-negative integer, got '\(value)'")
                    return 2
                }
                if flag == "--seed" { configuration.seed = number }
                if flag == "--random" { configuration.randomCount = Int(clamping: number) }
                if flag == "--jobs" { configuration.concurrency = max(1, Int(clamping: number)) }
            default:
                printError("unknown option \(flag)\n\(usage)")
                return 2
            }
        }
        printOut("oracle-check: \(configuration.protoDirectory), seed \(configuration.seed), "
                 + "\(configuration.randomCount) random messages, \(configuration.concurrency) protoc jobs")
        do {
            let report = try await OracleCheck.run(configuration) { done, total in
                let step = max(1, total / 10)
                if done % step == 0 || done == total { printError("oracle-check: \(done)/\(total) checked") }
            }
            printOut(report.table)
            for failure in report.failures.prefix(20) { printOut(failure.description) }
            if report.failures.count > 20 { printOut("... and \(report.failures.count - 20) more disagreements") }
            let total = report.total
            printOut(String(format: "oracle-check: %d agreed, %d disagreed, %d excluded (NaN payloads), %.1f s",
                         total.agreed, total.disagreed, total.excluded, report.seconds))
            return total.disagreed == 0 ? 0 : 1
        } catch {
            printError("oracle-check: \(error)")
            return 2
        }
    }

    /// Unbuffered, so stdout lines and stderr progress interleave in the order they happen.
    private static func printOut(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
