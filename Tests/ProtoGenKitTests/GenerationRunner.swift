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

/// protoc on the schema folder Tests/Schemas/`shape`; see `compileSchemaFolder`.
func compileTestSchema(_ shape: String, into folder: String) throws -> (schema: String, set: String) {
    try compileSchemaFolder(repositoryRoot + "/Tests/Schemas/" + shape, into: folder)
}

/// `files` (paths relative to `folder`/schema, subfolders made; `.options` files too) written,
/// then compiled; see `compileSchemaFolder`.
func compileWrittenSchema(_ files: [String: String], into folder: String) throws -> (schema: String, set: String) {
    let schema = folder + "/schema"
    for (path, text) in files {
        let file = schema + "/" + path
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
    }
    return try compileSchemaFolder(schema, into: folder)
}

/// protoc on every .proto under `schema` (the folder's own nanopb.proto first, then nanopb's),
/// writing the descriptor set with imports to `folder`/schema.pb. Returns the schema folder and the set.
func compileSchemaFolder(_ schema: String, into folder: String) throws -> (schema: String, set: String) {
    let tools = try GenerationTools.inTree(repositoryRoot)
    let set = folder + "/schema.pb"
    _ = try tools.run(tools.protoc, ["-I" + schema, "-I" + tools.nanopb + "/generator/proto", "--include_imports",
                                     "--descriptor_set_out=" + set] + SchemaGeneration.protoFiles(under: schema),
                      in: schema, what: "protoc")
    return (schema, set)
}
