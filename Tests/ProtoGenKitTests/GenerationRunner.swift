// Runs `make proto` (`protogen generate`) in this process, for the suites that generate from a
// schema folder (ProtoScriptTests on schemas written inline, NanopbOptionShapeTests on the option
// schemas under Tests/Schemas).

import Foundation
import ProofSupport
@testable import ProtoGenKit
import TestSupport

/// What one generation run reported: its exit status (0, or 1 when generation refused) and its lines.
struct GenerationRun {
    let status: Int32
    let said: String
    var stderrText: String { said }
}

/// Runs `protogen generate --proto-dir PROTO_DIRECTORY ARGUMENTS`, as `make proto` does (which also
/// names this package for the declaration hint, unless `hint` is false).
func runGeneration(protoDirectory: String, _ arguments: [String], hint: Bool = true) throws -> GenerationRun {
    let all = ["generate", "--proto-dir", protoDirectory] + arguments + (hint ? ["--hint-package-root", repositoryRoot] : [])
    do {
        return GenerationRun(status: 0, said: try ProtoGen.run(all).joined(separator: "\n"))
    } catch let error as GeneratorError {
        return GenerationRun(status: 1, said: "\(error)")
    }
}

/// What a run said.
func said(_ result: GenerationRun) -> String { result.said }

/// What a child process said, stdout then stderr.
func said(_ result: ChildProcess.Result) -> String { String(decoding: result.stdout + result.stderr, as: UTF8.self) }

/// protoc on the schema folder Tests/Schemas/`shape` (its own nanopb.proto first, then nanopb's),
/// writing the descriptor set with imports to `folder`/schema.pb. Returns the schema folder and the set.
func compileTestSchema(_ shape: String, into folder: String) throws -> (schema: String, set: String) {
    let tools = try GenerationTools.inTree(repositoryRoot)
    let schema = repositoryRoot + "/Tests/Schemas/" + shape
    let set = folder + "/schema.pb"
    _ = try tools.run(tools.protoc, ["-I" + schema, "-I" + tools.nanopb + "/generator/proto", "--include_imports",
                                     "--descriptor_set_out=" + set] + SchemaGeneration.protoFiles(under: schema),
                      in: schema, what: "protoc")
    return (schema, set)
}
