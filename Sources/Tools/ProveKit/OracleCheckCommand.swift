// `wireproof oracle-check`: the oracle against protoc alone (OracleCheck does the work; this
// file is its command line, progress and summary table).

import ArgumentParser
import FacadeProof
import Foundation
import OracleCheck

/// `wireproof oracle-check`. Exit status: 0 all agreed, 1 a disagreement, 2 usage or setup error.
public struct OracleCheckCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "oracle-check",
        abstract: "Cross-check the oracle against protoc on every exemplar (and random messages).",
        discussion: "Compiles DIR's .proto files with protoc and prints a summary table. "
            + "Exit status: 0 all agreed, 1 a disagreement, 2 usage or setup error.")

    @Option(name: .customLong("proto-dir"), help: "The schema: every .proto below DIR.")
    var protoDirectory = "Protos"

    @Option(name: .customLong("seed"), help: "Seed of the random messages.")
    var seed: UInt64 = OracleCheckConfiguration(protoDirectory: "").seed

    @Option(name: .customLong("random"), help: "Also cross-check N random messages.")
    var random: UInt = 0

    @Option(name: .customLong("jobs"), help: "protoc processes at once (at least 1).")
    var jobs: UInt?

    @Option(name: .customLong("protoc"), help: "The protoc to compare with.")
    var protoc: String?

    public init() {}

    public func run() async throws {
        var configuration = OracleCheckConfiguration(protoDirectory: protoDirectory)
        configuration.seed = seed
        configuration.randomCount = Int(clamping: random)
        if let jobs { configuration.concurrency = max(1, Int(clamping: jobs)) }
        if let protoc { configuration.protocPath = protoc }
        throw ExitCode(await Self.check(configuration))
    }

    /// Runs the check and prints progress and a setup error to `err` (stderr), the table, the
    /// disagreements and the summary to `out` (stdout); returns the exit status.
    static func check(_ configuration: OracleCheckConfiguration, out: @escaping @Sendable (String) -> Void = { printOut($0) },
                      err: @escaping @Sendable (String) -> Void = { printError($0) }) async -> Int32 {
        out("oracle-check: \(configuration.protoDirectory), seed \(configuration.seed), "
            + "\(configuration.randomCount) random messages, \(configuration.concurrency) protoc jobs")
        do {
            let report = try await OracleCheck.run(configuration) { done, total in
                if ProgressCadence.shows(done: done, of: total, times: 10) { err("oracle-check: \(done)/\(total) checked") }
            }
            out(report.table)
            for line in failureLines(report.failures.map(\.description)) { out(line) }
            let total = report.total
            out(String(format: "oracle-check: %d agreed, %d disagreed, %d excluded (NaN payloads), %.1f s",
                       total.agreed, total.disagreed, total.excluded, report.seconds))
            return total.disagreed == 0 ? 0 : 1
        } catch {
            err("oracle-check: \(error)")
            return 2
        }
    }
}

extension OracleCheckCommand {
    /// The disagreements printed after the table: the first 20, then how many were left out.
    static func failureLines(_ failures: [String]) -> [String] {
        failures.prefix(20) + (failures.count > 20 ? ["... and \(failures.count - 20) more disagreements"] : [])
    }
}

/// Unbuffered, so stdout lines and stderr progress interleave in the order they happen.
func printOut(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
func printError(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
