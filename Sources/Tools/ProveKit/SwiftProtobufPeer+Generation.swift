// protoc-gen-swift 1.38.1 run by protoc into a staging folder of the peer package, and the two ways
// facade-side sources enter the peer: the bundled schema (Protos/) as target BundledProtoSwift, and
// a facade program with its one differing import line swapped.

import Foundation
import ProofSupport

extension SwiftProtobufPeer {
    /// Builds protoc-gen-swift unless `builtPlugin` names it, empties `staging` and runs protoc with `arguments` (include paths,
    /// file names or a descriptor set) into it: public types (the code is its own module), one file
    /// name per .proto path, so equal base names in two folders cannot clash. A crash of the plugin is
    /// SwiftProtobuf's own bug on this schema: the peer is then unavailable.
    func runProtocGenSwift(into staging: String, _ arguments: [String]) throws {
        let plugin = try builtPlugin ?? build("protoc-gen-swift")
        try? FileManager.default.removeItem(atPath: staging)
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        guard let protoc = ChildProcess.executableOnPath("protoc") else { throw SwiftProtobufPeerError.failed("no protoc on PATH: run make setup") }
        let log = logs + "/peer-protoc.log"
        let result = try ChildProcess.run(protoc, ["--plugin=protoc-gen-swift=\(plugin)", "--swift_out=\(staging)",
                                                   "--swift_opt=Visibility=Public", "--swift_opt=FileNaming=PathToUnderscores"] + arguments)
        try Data(result.stderr).write(to: URL(fileURLWithPath: log))
        guard result.status != 0 else { return }
        let errors = result.stderrText
        if errors.contains("Plugin killed by signal") {
            let what = Self.firstMatch(#"Swift runtime failure: [^ ].*in protoc-gen-swift"#, in: errors)
                ?? Self.firstMatch(#"Plugin killed by signal [0-9]*"#, in: errors) ?? "killed"
            throw SwiftProtobufPeerError.unavailable("protoc-gen-swift 1.38.1 crashed on this schema (\(what); log: \(relative(log)))")
        }
        FileHandle.standardError.write(Data(result.stderr))
        throw SwiftProtobufPeerError.failed("protoc-gen-swift failed on: \(arguments.last ?? "")")
    }

    /// The bundled schema (every .proto under Protos/, byte order) through protoc-gen-swift into
    /// Generated/BundledProto.
    func generateBundled() throws {
        let protos = root + "/Protos"
        guard let walker = FileManager.default.enumerator(atPath: protos) else { throw SwiftProtobufPeerError.failed("cannot read \(protos)") }
        let files = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".proto") }.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
        let staging = logs + "/staging-bundled"
        try runProtocGenSwift(into: staging, ["-I", protos, "-I", "/usr/include"] + files)
        try GeneratedFolderSync.sync(from: staging, to: generated + "/BundledProto")
    }

    /// Copies facade-side source `source` into `staging` with `import BundledProto` made
    /// `import BundledProtoSwift`, the one line that differs between the two builds.
    func copySwappingImport(_ source: String, into staging: String) throws {
        guard let text = try? String(contentsOfFile: source, encoding: .utf8) else { throw SwiftProtobufPeerError.failed("cannot read \(source)") }
        var swapped = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            guard line == "import BundledProto" else { return line }
            swapped = true
            return "import BundledProtoSwift"
        }
        guard swapped else { throw SwiftProtobufPeerError.failed("\(relative(source)) no longer has the line 'import BundledProto'") }
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: staging + "/" + (source as NSString).lastPathComponent))
    }

    /// `path` relative to the tree, for messages.
    func relative(_ path: String) -> String { RootPath.shown(path, under: root) }

    /// The first match of `pattern` in `text`.
    static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let range = text.range(of: pattern, options: .regularExpression) else { return nil }
        return String(text[range])
    }
}
