import ArgumentParser
import Foundation
import Testing
@testable import ProveKit
import TestSupport

/// `wireproof scratch-manifest`'s flags: each becomes the target, dependency, link or package it
/// spells, and a malformed or dangling one is refused with a message naming it; the command says
/// whether it wrote the file or found it unchanged.
@Suite struct ScratchManifestCommandTests {
    private func manifest(_ arguments: [String]) throws -> ScratchManifest {
        try ScratchManifestCommand.parse(["--dir", "/tmp/unused", "--name", "Bench", "--written-by", "ScratchManifestCommandTests",
                                          "--wireproof-root", "/tmp/r/../root"] + arguments).manifest()
    }

    private func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try manifest(arguments)
            return nil
        } catch let error as ValidationError {
            return error.message
        } catch {
            return "not a ValidationError: \(error)"
        }
    }

    @Test func everyFlagBecomesWhatItSpells() throws {
        let built = try manifest([
            "--purpose", "For a test.", "--target", "Lib", "--target", "LibC=wireproof:CNanopb, Other , ,",
            "--executable", "Main=LibC,swift-protobuf:SwiftProtobuf", "--executable", "_Tool9",
            "--links", "LibC=crypto, ssl", "--links", "Main=z",
            "--package-url", "https://github.com/apple/swift-protobuf.git@1.38.1", "--cxx17",
        ])
        #expect(built.packageName == "Bench")
        #expect(built.writtenBy == "ScratchManifestCommandTests")
        #expect(built.purpose == ["For a test."])
        #expect(built.wireproofRoot == "/tmp/root")
        #expect(built.targets == [
            .init("Lib"),
            .init("LibC", dependencies: [.product("CNanopb", package: "wireproof"), .target("Other")], linkedLibraries: ["crypto", "ssl"]),
            .init("Main", executable: true, dependencies: [.target("LibC"), .product("SwiftProtobuf", package: "swift-protobuf")],
                  linkedLibraries: ["z"]),
            .init("_Tool9", executable: true),
        ])
        #expect(built.urlDependencies == [.init(url: "https://github.com/apple/swift-protobuf.git", exactVersion: "1.38.1")])
        #expect(built.cxx17)
        #expect(try manifest(["--target", "A"]).cxx17 == false)
    }

    @Test func theCommandSaysWroteThenUnchangedForTheSameFlags() throws {
        let folder = try TemporaryFolder("scratch-manifest")
        let command = try ScratchManifestCommand.parse(["--dir", folder.path + "/pkg", "--name", "Bench", "--written-by", "a test",
                                                        "--wireproof-root", "/tmp/root", "--target", "Lib"])
        var said: [String] = []
        try command.run(say: { said.append($0) })
        try command.run(say: { said.append($0) })
        #expect(said == ["scratch-manifest: wrote \(folder.path)/pkg/Package.swift", "scratch-manifest: unchanged \(folder.path)/pkg/Package.swift"])
        #expect(FileManager.default.contents(atPath: folder.path + "/pkg/Package.swift") == Data(try command.manifest().render(directory: folder.path + "/pkg").utf8))
    }

    @Test func aTargetNameThatIsNotAnIdentifierIsRefused() {
        #expect(refusal(["--target", "9Lib"]) == "'9Lib' in '9Lib' is not a target name")
        #expect(refusal(["--target", "Li-b=A"]) == "'Li-b' in 'Li-b=A' is not a target name")
        #expect(refusal(["--executable", "=A"]) == "'' in '=A' is not a target name")
        #expect(refusal(["--executable", "Ma in"]) == "'Ma in' in 'Ma in' is not a target name")
        #expect(refusal(["--target", "Lib", "--links", "L.b=z"]) == "'L.b' in 'L.b=z' is not a target name")
    }

    @Test func aLinkToNoTargetOrWithoutALibraryListIsRefused() {
        #expect(refusal(["--target", "Lib", "--links", "Missing=crypto"]) == "--links Missing=crypto: no target Missing")
        #expect(refusal(["--target", "Lib", "--links", "Lib"]) == "--links wants NAME=A,B,..., got 'Lib'")
    }

    @Test func aPackageURLWithoutBothURLAndVersionIsRefused() throws {
        for spec in ["https://example.org/p.git", "@1.0.0", "https://example.org/p.git@"] {
            #expect(refusal(["--package-url", spec]) == "--package-url wants URL@VERSION, got '\(spec)'")
        }
        // The version follows the last "@": a URL may hold one of its own.
        #expect(try manifest(["--package-url", "git@example.org:p.git@2.0"]).urlDependencies
                == [.init(url: "git@example.org:p.git", exactVersion: "2.0")])
    }
}
