import Foundation
import ProofSupport
import ProtoSchema

/// Compiles `.proto` sources held in memory (a test's or a tool's) with the real protoc and loads
/// the descriptor set: the one place that turns inline schema text into a `SchemaSet`.
public enum InlineSchema {
    /// protoc refused the sources; carries its stderr.
    public struct CompileError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Writes `files` (relative path → contents) into a fresh temporary folder, runs
    /// `protoc -I. -I/usr/include --include_imports --descriptor_set_out` there on `compile`
    /// (default: every file, in path order), loads the result and removes the folder.
    public static func compile(_ files: [String: String], compile: [String]? = nil) throws -> SchemaSet {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-inline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let out = dir.appendingPathComponent("set.pb").path
        let protoc = try ChildProcess.run(
            "/usr/bin/protoc",
            ["-I.", "-I/usr/include", "--include_imports", "--descriptor_set_out=\(out)"] + (compile ?? files.keys.sorted()),
            in: dir.path)
        guard protoc.status == 0 else { throw CompileError(description: "protoc failed: \(protoc.stderrText)") }
        return try SchemaSet(contentsOf: out)
    }
}
