// `wireproof scratch-package`: a throwaway package holding the C target and facades of .proto files
// this package does not bundle, generated in this process (SchemaGeneration) and declared by
// ScratchManifest; optionally with executables that use them (make conformance's host).

import ArgumentParser
import Foundation
import ProtoGenKit

/// `wireproof scratch-package`.
public struct ScratchPackageCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scratch-package",
        abstract: "Write a throwaway package holding the C target and facades of some .proto files.",
        discussion: """
            Each PROTO (a name such as google/protobuf/any.proto) is copied from the first --include \
            root that holds it into DIR/Protos; what it imports is found through the same roots. \
            DIR/Protos and DIR/Sources are replaced. Build the result with \
            `swift build --package-path DIR`.
            """)

    @Option(help: "The package folder (created).") var dir: String
    @Option(help: "The schema's name: targets NAME (facades) and NAMEC (nanopb C).") var name: String
    @Option(name: .customLong("include"), help: "A root to find each PROTO in, searched in order (repeatable; default /usr/include).")
    var includes: [String] = []
    @Option(name: .customLong("executable"), help: "TARGET=SOURCE_DIR: an executable target using the schema, its sources copied (repeatable).")
    var executables: [String] = []
    @Flag(name: .customLong("c-only"), help: "Generate and declare only the C target.") var cOnly = false
    @Argument(help: "The .proto files, named relative to an --include root.") var protos: [String]

    public init() {}

    public func validate() throws {
        if protos.isEmpty { throw ValidationError("give at least one PROTO") }
        if name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) == nil {
            throw ValidationError("--name must be an identifier, got '\(name)'")
        }
    }

    public func run() throws { try run(printing: { print($0) }) }

    /// Writes the package, saying generation's report lines and then what it wrote to `say`.
    func run(printing say: (String) -> Void) throws {
        let fm = FileManager.default
        let folder = SchemaGeneration.absolute(dir)
        let roots = Self.includeRoots(includes)
        for sub in ["Protos", "Sources"] where fm.fileExists(atPath: "\(folder)/\(sub)") { try fm.removeItem(atPath: "\(folder)/\(sub)") }
        try Self.copy(protos, from: roots, into: "\(folder)/Protos")

        let wireproof = try GenerationTools.wireproofRoot()
        for line in try SchemaGeneration.run(generationRequest(folder: folder, roots: roots), tools: GenerationTools.inTree(wireproof)).report {
            say(line)
        }
        let programs = try executableTargets()
        for program in programs {
            try fm.copyItem(atPath: SchemaGeneration.absolute(program.source), toPath: "\(folder)/Sources/\(program.name)")
        }
        try scratchManifest(wireproofRoot: wireproof, executables: programs).write(into: folder)
        say("scratch-package: wrote \(folder) (schema \(name): \(protos.joined(separator: " ")))")
    }

    /// Copies each of `protos` (a path relative to a root) from the first of `roots` that holds
    /// it to the same relative path under `destination`, creating the folders on the way; a PROTO
    /// no root holds is a `ValidationError` naming the roots.
    static func copy(_ protos: [String], from roots: [String], into destination: String) throws {
        let fm = FileManager.default
        for proto in protos {
            guard let root = roots.first(where: { fm.fileExists(atPath: "\($0)/\(proto)") }) else {
                throw ValidationError("\(proto) is not under \(roots.joined(separator: ", "))")
            }
            let target = "\(destination)/\(proto)"
            try fm.createDirectory(atPath: URL(fileURLWithPath: target).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try fm.copyItem(atPath: "\(root)/\(proto)", toPath: target)
        }
    }

    /// The roots each PROTO is looked for in, in order, absolute: /usr/include when none is given.
    static func includeRoots(_ includes: [String]) -> [String] {
        (includes.isEmpty ? ["/usr/include"] : includes).map(SchemaGeneration.absolute)
    }

    /// Generation of the copied schema in `folder`: C always, facades unless --c-only; the include
    /// roots other than /usr/include (which generation always searches) as import paths.
    func generationRequest(folder: String, roots: [String]) -> GenerationRequest {
        var request = GenerationRequest(protoDirectory: "\(folder)/Protos", cOut: "\(folder)/Sources/\(name)C")
        request.swiftOut = cOnly ? nil : "\(folder)/Sources/\(name)"
        request.protoPaths = roots.filter { $0 != "/usr/include" }
        return request
    }

    /// Each --executable as its target name and source folder; a spec without "=" or naming no
    /// existing folder is a `ValidationError`.
    func executableTargets() throws -> [(name: String, source: String)] {
        try executables.map { executable in
            let parts = executable.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, FileManager.default.fileExists(atPath: parts[1]) else {
                throw ValidationError("--executable wants TARGET=SOURCE_DIR of an existing folder, got '\(executable)'")
            }
            return (parts[0], parts[1])
        }
    }

    /// The package's manifest: NAMEC, NAME unless --c-only, and each executable on both (and the runtime).
    func scratchManifest(wireproofRoot wireproof: String, executables programs: [(name: String, source: String)]) -> ScratchManifest {
        var manifest = ScratchManifest(packageName: "\(name)Scratch", writtenBy: "`wireproof scratch-package`",
                                       purpose: ["A package holding schema \(name) (\(protos.joined(separator: " ")))."],
                                       wireproofRoot: wireproof)
        manifest.targets.append(.init("\(name)C", dependencies: [.product("CNanopb", package: "wireproof")]))
        if !cOnly { manifest.targets.append(.init(name, dependencies: [.target("\(name)C"), .product("NanopbRuntime", package: "wireproof")])) }
        for program in programs {
            manifest.targets.append(.init(program.name, executable: true,
                                          dependencies: (cOnly ? [] : [.target(name)]) + [.target("\(name)C"), .product("NanopbRuntime", package: "wireproof"),
                                                                                          .product("CNanopb", package: "wireproof")]))
        }
        return manifest
    }
}
