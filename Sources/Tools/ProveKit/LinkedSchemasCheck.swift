// Two schemas in one program (`wireproof link-check`, step 3 of `make check-foreign`):
// Tests/Schemas/linked/alpha and beta both import Google's well-known types and linked/common.proto.
// The shared files are generated once into a module pair of their own (Shared, SharedC); each
// schema is generated with the external module Shared:SharedC, so its C target holds only its own
// file. A scratch package links both into one executable (Tests/Schemas/linked/program): it fails
// to link if a symbol is defined twice, fails to compile if the two schemas saw different Timestamp
// or Tag types, and prints each message's encoding, which must equal `protoc --encode` of the same
// values. Generation runs in this process (SchemaGeneration); the manifest is ScratchManifest's.

import Foundation
import ProofSupport
import ProtoGenKit

/// The linked-schemas check. Owns `package` (Protos, Sources, Package.swift, build.log), which it
/// replaces on each run except for SwiftPM's .build.
struct LinkedSchemasCheck {
    /// The Wireproof tree (its Tests/Schemas/linked and generation tools).
    let root: String
    /// The scratch package (absolute).
    let package: String

    var schemas: String { root + "/Tests/Schemas/linked" }
    /// The shared module's schema root: the well-known types both import, and linked/common.proto.
    var sharedProtos: String { package + "/Protos/Shared" }

    /// Each message the program prints, its proto file and folder (below `schemas`), and the text
    /// format of the values Tests/Schemas/linked/program/main.swift builds.
    struct Expectation: Equatable {
        let label: String, folder: String, file: String, type: String, text: String
    }
    static let expectations = [
        Expectation(label: "alpha.Event", folder: "alpha", file: "alpha.proto", type: "linked.alpha.Event",
                    text: #"name: "start" at { seconds: 1700000000 nanos: 5 } tag { label: "shared" weight: 3 }"#),
        Expectation(label: "beta.Record", folder: "beta", file: "beta.proto", type: "linked.beta.Record",
                    text: #"at { seconds: 1700000000 nanos: 5 } tag { label: "shared" weight: 3 } took { seconds: 2 } values: [1, -1, 300]"#),
    ]

    /// The package's manifest: each schema's C and facades over the shared pair, one executable.
    static func manifest(root: String) -> ScratchManifest {
        var manifest = ScratchManifest(packageName: "LinkedSchemas", writtenBy: "`wireproof link-check`",
                                       purpose: ["Two schemas sharing one module of imports, linked into one program."],
                                       wireproofRoot: root)
        let cNanopb = ScratchManifest.Dependency.product("CNanopb", package: "wireproof")
        let runtime = ScratchManifest.Dependency.product("NanopbRuntime", package: "wireproof")
        manifest.targets = [.init("SharedC", dependencies: [cNanopb]), .init("Shared", dependencies: [.target("SharedC"), runtime])]
        for name in ["Alpha", "Beta"] {
            manifest.targets += [.init(name + "C", dependencies: [.target("SharedC"), cNanopb]),
                                 .init(name, dependencies: [.target(name + "C"), .target("Shared"), runtime])]
        }
        manifest.targets.append(.init("Linked", executable: true, dependencies: [.target("Alpha"), .target("Beta"), .target("Shared"), runtime]))
        return manifest
    }

    /// Headers in a schema's C target that belong to a shared file (none when the external module
    /// took them all), relative to its include folder.
    static func sharedHeaders(inCTarget folder: String) -> [String] {
        let include = folder + "/include"
        guard let files = FileManager.default.enumerator(atPath: include) else { return [] }
        return files.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".h") && ($0.hasPrefix("google/") || $0 == "linked/common.pb.h") }.sorted()
    }

    /// Throws naming the shared files' headers in schema `name`'s C target: the external module
    /// should have taken them all, and two copies of one file's C would not link.
    static func refuseSharedC(of name: String, cTarget folder: String) throws {
        let shared = sharedHeaders(inCTarget: folder)
        guard shared.isEmpty else { throw ProveError(description: "\(name)C holds C of a shared file: \(shared.joined(separator: " "))") }
    }

    /// The lines naming each message whose bytes differ from `expected` (label → hex), or that the
    /// program did not print. The program prints `LABEL HEX` per message.
    static func mismatches(programOutput: String, expected: [String: String]) -> [String] {
        var printed: [String: String] = [:]
        for line in programOutput.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2 { printed[String(fields[0])] = String(fields[1]) }
        }
        return expected.keys.sorted().compactMap { label in
            guard let bytes = printed[label] else { return "\(label): the program printed no bytes" }
            return bytes == expected[label] ? nil : "\(label): the program wrote other bytes than protoc --encode (\(expected[label]!))"
        }
    }

    /// Runs the check; throws `ProveError` naming the first thing that failed. `say` gets progress.
    func run(say: (String) -> Void) throws {
        let fm = FileManager.default
        try stageSharedProtos()
        let tools = try GenerationTools.inTree(root)
        try generate("Shared", protos: sharedProtos, external: nil, tools: tools)
        for (name, folder) in [("Alpha", "alpha"), ("Beta", "beta")] {
            try generate(name, protos: "\(schemas)/\(folder)", external: ExternalModules(facadeModule: "Shared", cModule: "SharedC"), tools: tools)
            try Self.refuseSharedC(of: name, cTarget: "\(package)/Sources/\(name)C")
        }
        try? fm.removeItem(atPath: package + "/Sources/Linked")
        try fm.createDirectory(atPath: package + "/Sources/Linked", withIntermediateDirectories: true)
        try fm.copyItem(atPath: schemas + "/program/main.swift", toPath: package + "/Sources/Linked/main.swift")
        try Self.manifest(root: root).write(into: package)

        say("link-check: building \(package) (SharedC + AlphaC + BetaC in one executable)")
        let build = try ChildProcess.run("/usr/bin/env", Prover.scratchBuild(package, ["--product", "Linked"]))
        let log = build.stdout + build.stderr
        try Data(log).write(to: URL(fileURLWithPath: package + "/build.log"))
        guard build.status == 0 else {
            throw ProveError(description: "the two schemas do not build or link into one program (log: \(package)/build.log)\n"
                             + Self.buildErrors(String(decoding: log, as: UTF8.self)).joined(separator: "\n"))
        }
        let program = try ChildProcess.run(package + "/.build/debug/Linked", [])
        let output = String(decoding: program.stdout, as: UTF8.self)
        guard program.status == 0 else { throw ProveError(description: "the linked program failed: \(output)\(program.stderrText)") }
        for line in output.split(separator: "\n") { say("    " + line) }

        var expected: [String: String] = [:]
        for expectation in Self.expectations { expected[expectation.label] = try encode(expectation) }
        if let first = Self.mismatches(programOutput: output, expected: expected).first { throw ProveError(description: first) }
        say("link-check: ok (two schemas and their shared imports in one program; bytes equal protoc --encode)")
    }

    /// Replaces the package's Protos with the shared module's schema root: Debian's timestamp and
    /// duration, and linked/common.proto.
    func stageSharedProtos() throws {
        let fm = FileManager.default
        try? fm.removeItem(atPath: package + "/Protos")
        for folder in ["google/protobuf", "linked"] { try fm.createDirectory(atPath: "\(sharedProtos)/\(folder)", withIntermediateDirectories: true) }
        for name in ["timestamp", "duration"] {
            try fm.copyItem(atPath: "/usr/include/google/protobuf/\(name).proto", toPath: "\(sharedProtos)/google/protobuf/\(name).proto")
        }
        try fm.copyItem(atPath: schemas + "/shared/linked/common.proto", toPath: sharedProtos + "/linked/common.proto")
    }

    /// At most 20 lines of a failed build's log that name an error or a symbol defined twice.
    static func buildErrors(_ log: String) -> [String] {
        Array(log.split(separator: "\n").filter { $0.contains("error") || $0.contains("multiple definition") }.prefix(20).map(String.init))
    }

    /// Generation of one module pair (`name`C and `name`) into the package; with `external`, the
    /// shared module's files come from it and its schema root is an import path.
    func generationRequest(_ name: String, protos: String, external: ExternalModules?) -> GenerationRequest {
        var request = GenerationRequest(protoDirectory: protos, cOut: "\(package)/Sources/\(name)C")
        request.swiftOut = "\(package)/Sources/\(name)"
        if let external {
            request.protoPaths = [sharedProtos]
            request.external = external
        }
        return request
    }

    /// Generates one module pair (`name`C and `name`) into the package, in this process.
    private func generate(_ name: String, protos: String, external: ExternalModules?, tools: GenerationTools) throws {
        let request = generationRequest(name, protos: protos, external: external)
        do { _ = try SchemaGeneration.run(request, tools: tools) } catch {
            throw ProveError(description: "generation of \(name) failed: \(error)")
        }
    }

    /// protoc --encode of the expectation's text, as lower-case hex.
    func encode(_ expectation: Expectation) throws -> String {
        let protoc = ChildProcess.protoc()
        let result = try ChildProcess.run(protoc, ["-I.", "-I\(sharedProtos)", "-I/usr/include", "--encode=\(expectation.type)", expectation.file],
                                          input: Array(expectation.text.utf8), in: "\(schemas)/\(expectation.folder)")
        guard result.status == 0 else { throw ProveError(description: "protoc --encode of \(expectation.type) failed: \(result.stderrText)") }
        return result.stdout.map { String(format: "%02x", $0) }.joined()
    }
}
