import Foundation
import OracleCheck
import ProtoSchema

/// Compiles `.proto` sources written by a test with the real protoc and loads the descriptor set.
enum Protoc {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `files` (path → contents) into a fresh temporary folder, runs
    /// `protoc --include_imports --descriptor_set_out` on `compile` (default: all of them) and
    /// returns the loaded schema.
    static func schema(_ files: [String: String], compile: [String]? = nil) throws -> SchemaSet {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("wireproof-schema-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let out = dir.appendingPathComponent("set.pb").path
        let protoc = try ChildProcess.run(
            "/usr/bin/protoc",
            ["-I.", "-I/usr/include", "--include_imports", "--descriptor_set_out=\(out)"] + (compile ?? files.keys.sorted()),
            in: dir.path)
        guard protoc.status == 0 else { throw Failure(description: "protoc failed: \(protoc.stderrText)") }
        return try SchemaSet(contentsOf: out)
    }
}
