// `wireproof prove`: the whole proof on any .proto tree, in a scratch package this command manages.
//
//   1. oracle vs protoc on every exemplar (and optional random messages)     in-process (OracleCheck)
//   2. generate nanopb C, facades and the schema's catalog                   scripts/proto.sh
//   3. build a runner that links them with FacadeProof                       swift build
//   4. every exemplar through the facades vs the oracle, seeded decode       the runner (FacadeProof)
//      mutation, deviation-row accounting
//   5. optionally, a bounded libFuzzer run of the schema's decoder          scripts/fuzz-schema.sh
//
// Progress goes to stderr as it happens; tables to stdout; `--json FILE` writes a summary for CI.
// Exit status: 0 proved, 1 a check failed (the failing message type, exemplar and first differing
// byte are printed), 2 a usage, setup, generation or build error (what failed is printed).

import Foundation
import OracleCheck

public enum ProveCommand {
    public static let usage = """
        usage: wireproof prove --proto-dir DIR [--options FILE] [--proto-path DIR]... [--honour-options]
                               [--random N] [--seed N] [--mutants N] [--fuzz-seconds N]
                               [--scratch DIR] [--json FILE] [--no-swiftprotobuf]

          --proto-dir     the schema: every .proto below DIR, named relative to it
          --options       a nanopb options file for every file (default: as make proto finds them)
          --proto-path    further import roots (repeatable); /usr/include is always searched
          --honour-options  apply the schema's own nanopb layout options the facades can honour
          --random N      also cross-check N random messages against protoc (spread over types)
          --mutants N     seeded decode mutants per message type (default 64; 0 skips)
          --fuzz-seconds N  also fuzz every message type's decoder with libFuzzer for N seconds
          --scratch DIR   the scratch package (default .scratch/prove/<name> in the Wireproof tree);
                          kept between runs so a second run rebuilds only what changed
          --json FILE     write the summary as JSON
          --no-swiftprotobuf  leave SwiftProtobuf out (by default protoc-gen-swift generates the
                          schema and SwiftProtobuf is judged next to the facades when it can be built)
        """

    struct Options {
        var protoDirectory = ""
        var optionsFile: String?
        var protoPaths: [String] = []
        var honourOptions = false
        var random = 0
        var seed: UInt64 = 1
        var mutants = 64
        var fuzzSeconds = 0
        var scratch: String?
        var json: String?
        var swiftProtobufPeer = true
    }

    public static func main(_ arguments: [String]) async -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let message): printError("\(message.text)\n\(usage)"); return 2
        }
        do {
            return try await Prover(options: options).run()
        } catch {
            printError("prove: \(error)")
            return 2
        }
    }

    struct UsageError: Error { let text: String }

    static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
        var options = Options()
        var rest = arguments[...]
        guard rest.popFirst() == "prove" else { return .failure(UsageError(text: "expected the prove subcommand")) }
        while let flag = rest.popFirst() {
            if flag == "--honour-options" || flag == "--honor-options" { options.honourOptions = true; continue }
            if flag == "--no-swiftprotobuf" { options.swiftProtobufPeer = false; continue }
            guard let value = rest.popFirst() else { return .failure(UsageError(text: "missing value for \(flag)")) }
            func number() -> Int? { Int(value).flatMap { $0 >= 0 ? $0 : nil } }
            switch flag {
            case "--proto-dir": options.protoDirectory = value
            case "--options": options.optionsFile = value
            case "--proto-path": options.protoPaths.append(value)
            case "--scratch": options.scratch = value
            case "--json": options.json = value
            case "--random", "--mutants", "--fuzz-seconds":
                guard let n = number() else { return .failure(UsageError(text: "\(flag) needs a non-negative integer, got '\(value)'")) }
                if flag == "--random" { options.random = n } else if flag == "--mutants" { options.mutants = n } else { options.fuzzSeconds = n }
            case "--seed":
                guard let n = UInt64(value) else { return .failure(UsageError(text: "--seed needs a non-negative integer")) }
                options.seed = n
            default: return .failure(UsageError(text: "unknown option \(flag)"))
            }
        }
        if options.protoDirectory.isEmpty { return .failure(UsageError(text: "--proto-dir is required")) }
        return .success(options)
    }

    static func printOut(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    static func printError(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
}
