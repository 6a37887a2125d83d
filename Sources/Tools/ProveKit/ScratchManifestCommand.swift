// `wireproof scratch-manifest`: ScratchManifest for tools outside this package (today `make bench`'s `wirebench run`), so
// no script spells Package.swift text of its own.

import ArgumentParser
import Foundation
import ProtoGenKit

/// `wireproof scratch-manifest`.
public struct ScratchManifestCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scratch-manifest",
        abstract: "Write the Package.swift of a throwaway package that builds against Wireproof by local path.",
        discussion: """
            A dependency is a target of the package (NAME) or a product (PACKAGE:PRODUCT, where \
            PACKAGE is "wireproof" or the identity of a --package-url). The file is rewritten only \
            when its text changes.
            """)

    @Option(help: "The package folder (created if missing).") var dir: String
    @Option(help: "The package's name.") var name: String
    @Option(name: .customLong("written-by"), help: "The command or script writing it, named in the header.") var writtenBy: String
    @Option(help: "A comment line saying what the package is for (repeatable).") var purpose: [String] = []
    @Option(name: .customLong("target"), help: "A library target: NAME or NAME=DEP,DEP,... (repeatable).") var libraries: [String] = []
    @Option(name: .customLong("executable"), help: "An executable target: NAME or NAME=DEP,DEP,... (repeatable).") var executables: [String] = []
    @Option(name: .customLong("links"), help: "TARGET=LIB,LIB,...: system libraries linked by a target (repeatable).") var links: [String] = []
    @Option(name: .customLong("package-url"), help: "URL@VERSION: a package fetched at an exact version (repeatable).") var packageURLs: [String] = []
    @Flag(help: "Compile C++ sources as C++17.") var cxx17 = false
    @Option(name: .customLong("wireproof-root"), help: "The Wireproof tree to build against (default: the one this tool was built in).")
    var wireproofRoot: String?

    public init() {}

    public func run() throws {
        try run(say: { print($0) })
    }

    /// Writes the manifest and says whether the file changed (`wrote`) or already held that text.
    func run(say: (String) -> Void) throws {
        let wrote = try manifest().write(into: dir)
        say("scratch-manifest: \(wrote ? "wrote" : "unchanged") \(dir)/Package.swift")
    }

    /// The manifest the flags describe; a malformed or dangling flag is a `ValidationError` naming it.
    func manifest() throws -> ScratchManifest {
        let root = try wireproofRoot.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? GenerationTools.wireproofRoot()
        var manifest = ScratchManifest(packageName: name, writtenBy: writtenBy, purpose: purpose, wireproofRoot: root)
        manifest.targets = try libraries.map { try Self.target($0, executable: false) } + executables.map { try Self.target($0, executable: true) }
        for link in links {
            let (name, libraries) = try Self.split(link, flag: "--links")
            guard let index = manifest.targets.firstIndex(where: { $0.name == name }) else {
                throw ValidationError("--links \(link): no target \(name)")
            }
            manifest.targets[index].linkedLibraries += libraries
        }
        manifest.urlDependencies = try packageURLs.map { spec in
            guard let at = spec.lastIndex(of: "@"), at != spec.startIndex, spec.index(after: at) != spec.endIndex else {
                throw ValidationError("--package-url wants URL@VERSION, got '\(spec)'")
            }
            return .init(url: String(spec[..<at]), exactVersion: String(spec[spec.index(after: at)...]))
        }
        manifest.cxx17 = cxx17
        return manifest
    }

    private static func target(_ spec: String, executable: Bool) throws -> ScratchManifest.Target {
        guard spec.contains("=") else {
            try checkIdentifier(spec, spec)
            return .init(spec, executable: executable)
        }
        let (name, dependencies) = try split(spec, flag: executable ? "--executable" : "--target")
        return .init(name, executable: executable, dependencies: dependencies.map(ScratchManifest.Dependency.init(parsing:)))
    }

    /// `NAME=A,B,...` into the name and the non-empty items.
    private static func split(_ spec: String, flag: String) throws -> (String, [String]) {
        let parts = spec.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { throw ValidationError("\(flag) wants NAME=A,B,..., got '\(spec)'") }
        try checkIdentifier(parts[0], spec)
        return (parts[0], parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    private static func checkIdentifier(_ name: String, _ spec: String) throws {
        if name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) == nil {
            throw ValidationError("'\(name)' in '\(spec)' is not a target name")
        }
    }
}
