// `wireproof prove`: the whole proof on any .proto tree, in a scratch package this command manages.
//
//   1. oracle vs protoc on every exemplar (and optional random messages)     in-process (OracleCheck)
//   2. generate nanopb C, facades and the schema's catalog                   in-process (wireproof generate)
//   3. build a runner that links them with FacadeProof                       swift build
//   4. every exemplar through the facades vs the oracle, seeded decode       the runner (FacadeProof)
//      mutation, deviation-row accounting
//   5. optionally, a bounded libFuzzer run of the schema's decoders         SchemaFuzzStep (libFuzzer)
//
// Progress goes to stderr as it happens; tables to stdout; `--json FILE` writes a summary for CI.
// Exit status: 0 proved, 1 a check failed (the failing message type, exemplar and first differing
// byte are printed), 2 a usage, setup, generation or build error (what failed is printed).

import ArgumentParser
import Foundation
import OracleCheck

/// `wireproof prove`.
public struct ProveCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "prove",
        abstract: "The whole proof on a .proto tree, in a scratch package of its own.",
        discussion: "Exit status: 0 proved, 1 a check failed, 2 a usage, setup, generation or build error.")

    @Option(name: .customLong("proto-dir"), help: "The schema: every .proto below DIR, named relative to it.")
    var protoDirectory: String

    @Option(name: .customLong("options"), help: "A nanopb options file for every file (default: as make proto finds them).")
    var optionsFile: String?

    @Option(name: .customLong("proto-path"), help: "A further import root (repeatable); /usr/include is always searched.")
    var protoPaths: [String] = []

    @Flag(name: [.customLong("honour-options"), .customLong("honor-options")],
          help: "Apply the schema's own nanopb layout options the facades can honour.")
    var honourOptions = false

    @Flag(name: .customLong("no-device"),
          help: "Skip the device party (on whenever the schema sets nanopb options: its own nanopb build, options applied, against the facades; docs/device.md).")
    var noDevice = false

    @Flag(name: .customLong("no-swiftprotobuf"),
          help: "Leave SwiftProtobuf out (by default protoc-gen-swift generates the schema and SwiftProtobuf is judged next to the facades when it can be built).")
    var noSwiftProtobuf = false

    @Option(name: .customLong("random"), help: "Also cross-check N random messages against protoc (spread over types).")
    var random: UInt = 0

    @Option(name: .customLong("seed"), help: "Seed of the random messages and the mutants.")
    var seed: UInt64 = 1

    @Option(name: .customLong("mutants"), help: "Seeded decode mutants per message type (0 skips).")
    var mutants: UInt = 64

    @Option(name: .customLong("fuzz-seconds"), help: "Also fuzz every message type's decoder with libFuzzer for N seconds.")
    var fuzzSeconds: UInt = 0

    @Option(name: .customLong("scratch"),
            help: "The scratch package (default .scratch/prove/<name>); kept so a second run rebuilds only what changed.")
    var scratch: String?

    @Option(name: .customLong("json"), help: "Write the summary as JSON to FILE.")
    var json: String?

    public init() {}

    /// What the prover is asked to do.
    struct Options {
        var protoDirectory = ""
        var optionsFile: String?
        var protoPaths: [String] = []
        var honourOptions = false
        var device = true
        var swiftProtobufPeer = true
        var random = 0
        var seed: UInt64 = 1
        var mutants = 64
        var fuzzSeconds = 0
        var scratch: String?
        var json: String?
    }

    var options: Options {
        Options(protoDirectory: protoDirectory, optionsFile: optionsFile, protoPaths: protoPaths,
                honourOptions: honourOptions, device: !noDevice, swiftProtobufPeer: !noSwiftProtobuf, random: Int(clamping: random), seed: seed,
                mutants: Int(clamping: mutants), fuzzSeconds: Int(clamping: fuzzSeconds),
                scratch: scratch, json: json)
    }

    public func run() async throws {
        try await run(err: { Self.printError($0) })
    }

    /// The proof; ends by throwing its exit status. A setup error the prover throws is said on
    /// `err` and is exit status 2.
    func run(err: (String) -> Void) async throws {
        do {
            throw ExitCode(try await Prover(options: options).run())
        } catch let exit as ExitCode {
            throw exit
        } catch {
            err("prove: \(error)")
            throw ExitCode(2)
        }
    }

    static func printOut(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    static func printError(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
}
