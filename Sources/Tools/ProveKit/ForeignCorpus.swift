// The foreign corpus of `wireproof check-foreign`: public schemas this project never wrote, laid out
// under .deps/foreign/<schema>/, one schema root per folder (fetched by package name, never committed):
//   googleapis      PyPI googleapis-common-protos: google/api, rpc, type, ... (63 files; google/api
//                   declares custom options on descriptor.proto)
//   onnx            PyPI onnx: onnx/onnx.proto (proto2). Not onnx-ml.proto: in onnx 1.23.2 it
//                   differs from onnx.proto by two comment lines, and proving it again cost CI 2 min
//   test_messages_proto3  Google's conformance message (Debian protobuf source, unpacked by setup)
//   wkt             Google's well-known types (Debian libprotobuf-dev, /usr/include)
//   descriptor      google/protobuf/descriptor.proto itself as a schema
//   nanopb-*        nanopb's own test schemas with their .options files (Debian nanopb source)
// Our own schemas (Tests/Schemas/*) are used in place; they are not copied here. PyPI downloads go
// through the machine's own pip configuration; versions are pinned so the corpus is the same everywhere.

import Foundation
import ProcessSupport

/// Lays out and lists the corpus. Owns `folder` (.deps/foreign), which it empties and refills
/// whenever the completion stamp is missing; a laid-out corpus is never touched again.
struct ForeignCorpus {
    /// The Wireproof tree (its .deps holds the unpacked nanopb and protobuf sources).
    let root: String
    /// Where the corpus lives.
    var folder: String { root + "/.deps/foreign" }

    /// Written last: its presence means every folder is complete. The version changes with the list.
    static let stamp = ".complete-v3"
    static let pypiPackages = ["googleapis-common-protos==1.76.0", "onnx==1.23.2"]
    static let wellKnownTypes = ["any", "api", "duration", "empty", "field_mask", "source_context", "struct",
                                 "timestamp", "type", "wrappers"]
    /// nanopb test schemas: "FOLDER" (every .proto and .options of tests/FOLDER: one schema, laid out as
    /// nanopb-FOLDER) or "FOLDER:FILE.proto" (that file and its FILE.options alone, as nanopb-FILE, for
    /// folders whose files are separate schemas: tests/options defines Message1 in both of its files).
    static let nanopbTests = ["alltypes", "alltypes_proto3", "anonymous_oneof", "intsizes", "map", "cyclic_messages",
                              "enum_sizes", "proto3_optional", "oneof", "options:options.proto",
                              "options:proto3_options.proto", "special_characters", "namingstyle", "fixed_count"]

    /// The schema folders of a laid-out corpus, absolute, in byte order of their names; folders
    /// whose name starts with a dot (the wheels' scratch) are not schemas.
    static func folders(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { folder + "/" + $0 }
    }

    /// Lays the corpus out unless the stamp says it is complete, then lists it.
    func layOutAndList(say: (String) -> Void) throws -> [String] {
        if !FileManager.default.fileExists(atPath: folder + "/" + Self.stamp) { try layOut(say: say) }
        return Self.folders(in: folder)
    }

    private func layOut(say: (String) -> Void) throws {
        let fm = FileManager.default
        let deps = root + "/.deps"
        guard fm.fileExists(atPath: deps + "/protobuf/src/google/protobuf"), fm.fileExists(atPath: deps + "/nanopb/tests") else {
            throw ProveError(description: "run 'make setup' first (.deps/protobuf and .deps/nanopb are missing)")
        }
        try? fm.removeItem(atPath: folder)
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let wheels = folder + "/.wheels"
        say("foreign-corpus: pip download \(Self.pypiPackages.joined(separator: " "))")
        let pip = ChildProcess.executableOnPath("pip").map { [$0] } ?? ["/usr/bin/python3", "-m", "pip"]
        let download = try ChildProcess.run(pip[0], Array(pip.dropFirst()) + ["download", "--no-deps", "--quiet",
                                                                             "--disable-pip-version-check", "-d", wheels] + Self.pypiPackages)
        guard download.status == 0 else {
            throw ProveError(description: "pip download failed (is PyPI reachable through this machine's pip configuration?): \(download.stderrText)")
        }
        try unpack(wheel: "googleapis_common_protos-", from: wheels, into: folder + "/googleapis") { $0.hasPrefix("google/") && $0.hasSuffix(".proto") }
        try unpack(wheel: "onnx-", from: wheels, into: folder + "/onnx") { $0 == "onnx/onnx.proto" }
        try fm.removeItem(atPath: wheels)

        let google = "/google/protobuf/"
        try copy(deps + "/protobuf/src" + google + "test_messages_proto3.proto", into: folder + "/test_messages_proto3" + google)
        for name in Self.wellKnownTypes { try copy("/usr/include" + google + name + ".proto", into: folder + "/wkt" + google) }
        try copy("/usr/include" + google + "descriptor.proto", into: folder + "/descriptor" + google)
        for test in Self.nanopbTests {
            let parts = test.split(separator: ":", maxSplits: 1).map(String.init)
            let source = deps + "/nanopb/tests/" + parts[0]
            guard fm.fileExists(atPath: source) else { throw ProveError(description: "nanopb test folder \(parts[0]) missing") }
            if parts.count == 1 {
                for name in try fm.contentsOfDirectory(atPath: source).sorted() where name.hasSuffix(".proto") || name.hasSuffix(".options") {
                    try copy(source + "/" + name, into: folder + "/nanopb-" + parts[0] + "/")
                }
            } else {
                let base = String(parts[1].dropLast(".proto".count))
                guard fm.fileExists(atPath: source + "/" + parts[1]) else {
                    throw ProveError(description: "nanopb test file \(parts[0])/\(parts[1]) missing")
                }
                try copy(source + "/" + parts[1], into: folder + "/nanopb-" + base + "/")
                if fm.fileExists(atPath: source + "/" + base + ".options") {
                    try copy(source + "/" + base + ".options", into: folder + "/nanopb-" + base + "/")
                }
            }
        }
        try Data().write(to: URL(fileURLWithPath: folder + "/" + Self.stamp))
    }

    /// Extracts the first wheel in `wheels` whose name starts with `prefix` (Python's own zipfile
    /// module, which every machine with the generator has) and keeps the members `keep` selects.
    private func unpack(wheel prefix: String, from wheels: String, into destination: String, keep: (String) -> Bool) throws {
        let fm = FileManager.default
        guard let wheel = try fm.contentsOfDirectory(atPath: wheels).sorted().first(where: { $0.hasPrefix(prefix) && $0.hasSuffix(".whl") }) else {
            throw ProveError(description: "pip downloaded no wheel named \(prefix)*.whl")
        }
        let extracted = wheels + "/" + wheel + ".unpacked"
        let unzip = try ChildProcess.run("/usr/bin/python3", ["-m", "zipfile", "-e", wheels + "/" + wheel, extracted])
        guard unzip.status == 0 else { throw ProveError(description: "cannot unpack \(wheel): \(unzip.stderrText)") }
        let members = (fm.enumerator(atPath: extracted)?.compactMap { $0 as? String } ?? []).filter(keep).sorted()
        guard !members.isEmpty else { throw ProveError(description: "\(wheel) holds no schema files") }
        for member in members {
            try copy(extracted + "/" + member, into: destination + "/" + (member as NSString).deletingLastPathComponent + "/")
        }
    }

    /// Copies the file at `source` into the folder `destination` (ending in "/"), made if needed.
    private func copy(_ source: String, into destination: String) throws {
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        let target = destination + (source as NSString).lastPathComponent
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: source, toPath: target)
    }
}
