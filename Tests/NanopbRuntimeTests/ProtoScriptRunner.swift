// Runs `make proto` (scripts/proto.sh) from a test: shared by the suites that generate C from a
// schema folder (ProtoScriptTests on schemas written inline, NanopbOptionShapeTests on the option
// schemas under Tests/Schemas).

import Foundation
import ProofSupport
import Testing

/// The package root (this file is Tests/NanopbRuntimeTests/ProtoScriptRunner.swift).
let protoScriptRepositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// Runs scripts/proto.sh with `--proto-dir protoDirectory` and `arguments`, from the repository
/// root. `workDirectory` is created for the caller, which removes it.
func runProtoScript(protoDirectory: String, workDirectory dir: URL, _ arguments: [String],
                    environment: [String] = []) throws -> ChildProcess.Result {
    // proto.sh runs `$SWIFT run protogen ...`; inside `swift test` that would wait forever for the
    // build folder's lock, so SWIFT names a stand-in that runs the protogen this test build made.
    let protogen = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("protogen").path
    try #require(FileManager.default.isExecutableFile(atPath: protogen), "\(protogen) missing: run swift build --build-tests")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let swift = protoScriptRepositoryRoot + "/scripts/protogen-stand-in.sh"
    return try ChildProcess.run("/usr/bin/env", ["SWIFT=" + swift, "PROTOGEN=" + protogen] + environment + ["/bin/bash", protoScriptRepositoryRoot + "/scripts/proto.sh",
                                                "--proto-dir", protoDirectory] + arguments,
                                in: protoScriptRepositoryRoot)
}

/// The output of a run, stdout then stderr.
func said(_ result: ChildProcess.Result) -> String { String(decoding: result.stdout + result.stderr, as: UTF8.self) }
