import ArgumentParser
import Foundation
import Testing
import TestSupport
@testable import ProveKit

/// `wireproof scratch-package` before it generates anything: its arguments, where it looks for
/// each PROTO, what it asks generation for, and the targets it declares (facades only without
/// --c-only; each executable on the schema's targets).
@Suite struct ScratchPackageCommandTests {
    private func command(_ arguments: [String]) throws -> ScratchPackageCommand {
        try ScratchPackageCommand.parse(["--dir", "/tmp/pkg", "--name", "Conf"] + arguments + ["a.proto"])
    }

    private func refusal(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch let error as ValidationError { return error.message } catch { return "\(error)" }
    }

    @Test func theNameMustBeAnIdentifierAndAProtoIsRequired() throws {
        for name in ["9a", "a-b", "a b"] {
            var named = try command([])
            named.name = name
            #expect(refusal { try named.validate() } == "--name must be an identifier, got '\(name)'")
        }
        #expect(throws: (any Error).self) { try ScratchPackageCommand.parse(["--dir", "/d", "--name", "9a", "a.proto"]) }
        var empty = try command([])
        empty.protos = []
        #expect(refusal { try empty.validate() } == "give at least one PROTO")
        #expect(refusal { try command([]).validate() } == nil)
    }

    @Test func protosAreLookedForInUsrIncludeUnlessRootsAreGiven() {
        #expect(ScratchPackageCommand.includeRoots([]) == ["/usr/include"])
        #expect(ScratchPackageCommand.includeRoots(["/a/../b", "/usr/include"]) == ["/b", "/usr/include"])
    }

    @Test func eachProtoIsCopiedFromTheFirstRootHoldingItToItsRelativePathUnderNewFolders() throws {
        let scratch = try TemporaryFolder("scratch-package-copy")
        let first = scratch.path + "/first", second = scratch.path + "/second"
        for (root, file, text) in [(first, "top.proto", "first top"), (second, "top.proto", "second top"),
                                   (second, "google/protobuf/deep.proto", "second deep")] {
            try FileManager.default.createDirectory(atPath: root + "/" + (file as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + file))
        }
        let destination = scratch.path + "/pkg/Protos"
        try ScratchPackageCommand.copy(["top.proto", "google/protobuf/deep.proto"], from: [first, second], into: destination)
        #expect(try String(contentsOfFile: destination + "/top.proto", encoding: .utf8) == "first top")
        #expect(try String(contentsOfFile: destination + "/google/protobuf/deep.proto", encoding: .utf8) == "second deep")
        #expect(refusal { try ScratchPackageCommand.copy(["none.proto"], from: [first, second], into: destination) }
                == "none.proto is not under \(first), \(second)")
    }

    /// The whole command on a one-file schema: nanopb C, facades and a manifest in the folder,
    /// generation's report said, then the line naming what it wrote.
    @Test func aRunWritesTheSchemasTargetsAndManifestAndSaysSo() throws {
        let scratch = try TemporaryFolder("scratch-package-run")
        try FileManager.default.createDirectory(atPath: scratch.path + "/in/tiny", withIntermediateDirectories: true)
        try "syntax = \"proto3\";\npackage tiny;\nmessage Ping { int32 id = 1; }\n"
            .write(toFile: scratch.path + "/in/tiny/ping.proto", atomically: true, encoding: .utf8)
        let folder = scratch.path + "/pkg"
        let command = try ScratchPackageCommand.parse(["--dir", folder, "--name", "Tiny", "--include", scratch.path + "/in", "tiny/ping.proto"])
        var said: [String] = []
        try command.run { said.append($0) }
        #expect(said.last == "scratch-package: wrote \(folder) (schema Tiny: tiny/ping.proto)")
        #expect(said.contains { $0.hasPrefix("proto: C target TinyC in ") }, "\(said)")
        #expect(said.contains { $0.hasPrefix("proto: facades in ") }, "\(said)")
        for file in ["Package.swift", "Protos/tiny/ping.proto", "Sources/TinyC/src/tiny/ping.pb.c", "Sources/TinyC/include/module.modulemap", "Sources/Tiny/tiny_ping.pb.swift"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/" + file), "\(file) \(said)")
        }
    }

    @Test func generationWritesCAndFacadesWithTheGivenRootsAsImportPaths() throws {
        let request = try command([]).generationRequest(folder: "/tmp/pkg", roots: ["/src", "/usr/include", "/more"])
        #expect(request.protoDirectory == "/tmp/pkg/Protos")
        #expect(request.cOut == "/tmp/pkg/Sources/ConfC")
        #expect(request.swiftOut == "/tmp/pkg/Sources/Conf")
        #expect(request.protoPaths == ["/src", "/more"])
        #expect(try command(["--c-only"]).generationRequest(folder: "/tmp/pkg", roots: ["/usr/include"]).swiftOut == nil)
    }

    @Test func eachExecutableNamesAnExistingFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-package-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/a=b", withIntermediateDirectories: true)
        let programs = try command(["--executable", "Host=\(folder)", "--executable", "Two=\(folder)/a=b"]).executableTargets()
        #expect(programs.map(\.name) == ["Host", "Two"])
        #expect(programs.map(\.source) == [folder, "\(folder)/a=b"])
        for spec in ["Host", "Host=\(folder)/none"] {
            #expect(refusal { _ = try command(["--executable", spec]).executableTargets() }
                    == "--executable wants TARGET=SOURCE_DIR of an existing folder, got '\(spec)'")
        }
    }

    @Test func theManifestDeclaresCFacadesAndExecutablesOnBoth() throws {
        let runtime = ScratchManifest.Dependency.product("NanopbRuntime", package: "wireproof")
        let nanopb = ScratchManifest.Dependency.product("CNanopb", package: "wireproof")
        let full = try command([]).scratchManifest(wireproofRoot: "/w", executables: [("Host", "/src/host")])
        #expect(full.packageName == "ConfScratch")
        #expect(full.purpose == ["A package holding schema Conf (a.proto)."])
        #expect(full.wireproofRoot == "/w")
        #expect(full.targets == [
            .init("ConfC", dependencies: [nanopb]),
            .init("Conf", dependencies: [.target("ConfC"), runtime]),
            .init("Host", executable: true, dependencies: [.target("Conf"), .target("ConfC"), runtime, nanopb]),
        ])
        let cOnly = try command(["--c-only"]).scratchManifest(wireproofRoot: "/w", executables: [("Host", "/src/host")])
        #expect(cOnly.targets == [
            .init("ConfC", dependencies: [nanopb]),
            .init("Host", executable: true, dependencies: [.target("ConfC"), runtime, nanopb]),
        ])
    }
}
