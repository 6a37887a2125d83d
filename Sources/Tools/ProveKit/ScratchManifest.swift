// The one writer of every `Package.swift` Wireproof's tools generate: prove's scratch package, the
// fuzz package over a proved schema, the bench's size and codec package, the linked-schemas program
// and the conformance host's package. The bench script reaches it through `wireproof scratch-manifest`
// (ScratchManifestCommand); Swift callers build a `ScratchManifest` and call `write(into:)`.

import FacadeProof
import Foundation

/// A throwaway SwiftPM package's manifest that depends on Wireproof by local path.
///
/// Invariants of the text it writes: tools version 6.2; Wireproof is a path dependency spelled
/// relative to the manifest's folder, and `"wireproof"` in a dependency means Wireproof's SwiftPM
/// identity (the last component of its folder, lower-cased); the header names the writer and a
/// revision of Wireproof's manifest and of the paths of the files under its Sources, because
/// SwiftPM replans a package when its own manifest changes, not when a local dependency's manifest
/// changes or one of its targets gains or loses a file (the scratch build then compiles that target
/// without the new file); library targets come before executables, each in the order given. The
/// same value renders the same bytes while Wireproof's manifest and file list stay the same.
public struct ScratchManifest: Equatable, Sendable {
    /// What a target depends on: a target of the scratch package, or a product of a package.
    public enum Dependency: Equatable, Sendable {
        case target(String)
        /// `package` is `"wireproof"` or the identity of a URL dependency (e.g. `"swift-protobuf"`).
        case product(String, package: String)

        /// Parses `NAME` (a target) or `PACKAGE:PRODUCT`.
        public init(parsing text: String) {
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            self = parts.count == 2 ? .product(parts[1], package: parts[0]) : .target(text)
        }
    }

    public struct Target: Equatable, Sendable {
        public var name: String
        public var isExecutable: Bool
        public var dependencies: [Dependency]
        /// System libraries linked into whatever uses the target (`-l` names).
        public var linkedLibraries: [String]

        public init(_ name: String, executable: Bool = false, dependencies: [Dependency] = [], linkedLibraries: [String] = []) {
            self.name = name
            self.isExecutable = executable
            self.dependencies = dependencies
            self.linkedLibraries = linkedLibraries
        }
    }

    /// A package fetched by URL at an exact version (e.g. swift-protobuf for the SwiftProtobuf peer).
    public struct URLDependency: Equatable, Sendable {
        public var url: String
        public var exactVersion: String

        public init(url: String, exactVersion: String) {
            self.url = url
            self.exactVersion = exactVersion
        }
    }

    public var packageName: String
    /// Who writes the file (a command or script), named in its header.
    public var writtenBy: String
    /// What the package is for: comment lines under the header.
    public var purpose: [String]
    /// The Wireproof tree the package builds against (absolute).
    public var wireproofRoot: String
    public var urlDependencies: [URLDependency] = []
    public var targets: [Target] = []
    /// Sets `cxxLanguageStandard: .cxx17` (a target with C++ sources needs it).
    public var cxx17 = false

    public init(packageName: String, writtenBy: String, purpose: [String], wireproofRoot: String) {
        self.packageName = packageName
        self.writtenBy = writtenBy
        self.purpose = purpose
        self.wireproofRoot = wireproofRoot
    }

    /// A digest of Wireproof's Package.swift and of the sorted paths (not contents) of every file
    /// under its Sources: what must change the scratch manifest's bytes so SwiftPM replans.
    static func revision(ofWireproofAt root: String) -> String {
        let manifest = FileManager.default.contents(atPath: root + "/Package.swift") ?? Data()
        // Bounded by the tree: the enumerator visits each entry once and follows no symbolic link.
        let files = (FileManager.default.enumerator(atPath: root + "/Sources")?.allObjects as? [String] ?? []).sorted()
        let text = String(decoding: manifest, as: UTF8.self) + "\n" + files.joined(separator: "\n")
        return String(DecodeMutationCheck.stableHash(text), radix: 16)
    }

    /// SwiftPM's identity of a package depended on by path: its folder's name, lower-cased.
    public static func identity(ofPackageAt path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.lastPathComponent.lowercased()
    }

    /// The manifest text for a package whose folder is `directory` (absolute).
    public func render(directory: String) -> String {
        let identity = Self.identity(ofPackageAt: wireproofRoot)
        let revision = Self.revision(ofWireproofAt: wireproofRoot)
        var lines = ["// swift-tools-version:6.2",
                     "// Written by \(writtenBy); do not edit, never committed."]
        lines += purpose.map { "// " + $0 }
        lines += ["// Built against Wireproof by local path (its manifest and file list revision \(revision)).",
                  "import PackageDescription",
                  "",
                  "let package = Package(",
                  "    name: \(Self.literal(packageName)),",
                  "    dependencies: ["]
        lines.append("        .package(path: \(Self.literal(Self.relativePath(from: directory, to: wireproofRoot)))),")
        for dependency in urlDependencies {
            lines.append("        .package(url: \(Self.literal(dependency.url)), exact: \(Self.literal(dependency.exactVersion))),")
        }
        lines += ["    ],", "    targets: ["]
        for target in targets.filter({ !$0.isExecutable }) + targets.filter(\.isExecutable) {
            lines.append("        " + Self.declaration(target, wireproofIdentity: identity) + ",")
        }
        lines.append(cxx17 ? "    ],\n    cxxLanguageStandard: .cxx17" : "    ]")
        lines.append(")")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `directory`/Package.swift unless it already holds the same text (so a rerun plans and
    /// builds nothing new); returns whether it wrote.
    @discardableResult
    public func write(into directory: String) throws -> Bool {
        let folder = URL(fileURLWithPath: directory).standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let data = Data(render(directory: folder).utf8)
        let path = folder + "/Package.swift"
        if FileManager.default.contents(atPath: path) == data { return false }
        try data.write(to: URL(fileURLWithPath: path))
        return true
    }

    private static func declaration(_ target: Target, wireproofIdentity: String) -> String {
        var arguments = ["name: \(literal(target.name))"]
        if !target.dependencies.isEmpty {
            let dependencies = target.dependencies.map { dependency in
                switch dependency {
                case .target(let name): return literal(name)
                case .product(let name, let package):
                    return ".product(name: \(literal(name)), package: \(literal(package == "wireproof" ? wireproofIdentity : package)))"
                }
            }
            arguments.append("dependencies: [" + dependencies.joined(separator: ", ") + "]")
        }
        if !target.linkedLibraries.isEmpty {
            arguments.append("linkerSettings: [" + target.linkedLibraries.map { ".linkedLibrary(\(literal($0)))" }.joined(separator: ", ") + "]")
        }
        return (target.isExecutable ? ".executableTarget(" : ".target(") + arguments.joined(separator: ", ") + ")"
    }

    /// `to` spelled relative to `from` (both absolute folders).
    static func relativePath(from: String, to: String) -> String {
        let base = URL(fileURLWithPath: from).standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let target = URL(fileURLWithPath: to).standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let common = zip(base, target).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: base.count - common) + target.dropFirst(common)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    private static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
