// Where the fuzz workflows read and write: the corpus in Corpus/, the work of each target in
// .scratch/fuzz/<target>/, the differential's SwiftProtobuf party in Fuzz/Sources/SwiftProtobufSchema.

import Foundation

/// The paths of one Wireproof tree's fuzzing. Pure: computing a path touches no file.
///
/// Ownership: .scratch/fuzz/ belongs to the fuzz workflows (corpus/ holds a campaign's new entries,
/// crashes/ what broke, triage/<sha1>/ the triage of each crash); Corpus/ is committed and only
/// `corpus` rewrites its generated files.
struct FuzzWorkspace: Sendable {
    /// The tree's root, absolute.
    let root: String

    var package: String { root + "/Fuzz" }
    var scratch: String { root + "/.scratch/fuzz" }
    var dictionary: String { root + "/Corpus/wireproof.dict" }
    var seeds: String { root + "/Corpus/seeds" }
    var regressions: String { root + "/Corpus/regressions" }
    var cTable: String { root + "/Fuzz/Sources/decode_c/MessageTable.generated.h" }
    /// The differential's fourth party: protoc-gen-swift's code, git-ignored.
    var swiftProtobufParty: String { root + "/Fuzz/Sources/SwiftProtobufSchema" }
    /// The descriptor set `generate` feeds the peer.
    var generationDescriptorSet: String { scratch + "/swiftprotobuf/wireproof.pb" }

    func work(_ target: FuzzTarget) -> String { "\(scratch)/\(target.rawValue)" }
    func corpus(_ target: FuzzTarget) -> String { work(target) + "/corpus" }
    func crashes(_ target: FuzzTarget) -> String { work(target) + "/crashes" }
    func log(_ target: FuzzTarget) -> String { work(target) + "/fuzz.log" }
    /// The triage folder of an input: named by the SHA-1 of its bytes (40 hex digits), so triaging
    /// the same bytes twice fills the same folder.
    func triageFolder(_ target: FuzzTarget, sha1: String) -> String { "\(work(target))/triage/\(sha1)" }

    /// The placeholder the SwiftProtobuf party holds until `generate` runs.
    static let placeholder = "// Placeholder until `wireproof fuzz generate` writes protoc-gen-swift's code here.\n"

    /// Gives the SwiftProtobuf party a source when it has none. It must hold one before SwiftPM first
    /// plans the Fuzz package, or the target stays out of the cached plan and the build after
    /// generation fails with "no such module" (as SwiftProtobufPeer.locked explains).
    func ensurePartyPlaceholder() throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: swiftProtobufParty, withIntermediateDirectories: true)
        let sources = try fm.contentsOfDirectory(atPath: swiftProtobufParty).filter { $0.hasSuffix(".swift") }
        if sources.isEmpty { try Data(Self.placeholder.utf8).write(to: URL(fileURLWithPath: swiftProtobufParty + "/Placeholder.swift")) }
    }

    /// The regular files below `folder`, recursively, as absolute paths in byte order of their
    /// names; none when the folder does not exist. Bounded by the tree (no symbolic link followed).
    static func files(under folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var paths: [String] = []
        for case let relative as String in enumerator {
            let path = "\(folder)/\(relative)"
            if (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular { paths.append(path) }
        }
        return paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// `path` made absolute against the current directory (a command-line argument).
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
