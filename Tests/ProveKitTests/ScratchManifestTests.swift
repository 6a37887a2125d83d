import Foundation
import ProofSupport
import Testing
@testable import ProveKit
import TestSupport


/// The one writer of the Package.swift files Wireproof's tools generate.
@Suite struct ScratchManifestTests {
    private func sample(root: String = repositoryRoot) -> ScratchManifest {
        var manifest = ScratchManifest(packageName: "SampleScratch", writtenBy: "ScratchManifestTests",
                                       purpose: ["A sample."], wireproofRoot: root)
        manifest.targets = [
            .init("Main", executable: true, dependencies: [.target("SampleC"), .product("SwiftProtobuf", package: "swift-protobuf")]),
            .init("SampleC", dependencies: [.product("CNanopb", package: "wireproof")], linkedLibraries: ["crypto"]),
        ]
        manifest.urlDependencies = [.init(url: "https://github.com/apple/swift-protobuf.git", exactVersion: "1.38.1")]
        manifest.cxx17 = true
        return manifest
    }

    @Test func swiftPMReadsTheManifestAsWritten() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-manifest-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try sample().write(into: directory))
        let result = try ChildProcess.run("/usr/bin/env", ["swift", "package", "--package-path", directory, "dump-package"])
        #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let targets = try #require(dump["targets"] as? [[String: Any]])
        #expect(targets.map { $0["name"] as? String } == ["SampleC", "Main"])
        #expect(targets.map { $0["type"] as? String } == ["regular", "executable"])
        #expect(dump["cxxLanguageStandard"] as? String == "c++17")
        let text = String(decoding: try JSONSerialization.data(withJSONObject: dump["dependencies"] ?? []), as: UTF8.self)
        #expect(text.contains("1.38.1"))
        #expect(text.contains(URL(fileURLWithPath: repositoryRoot).lastPathComponent))
        let sampleC = String(decoding: try JSONSerialization.data(withJSONObject: targets[0]), as: UTF8.self)
        #expect(sampleC.contains("\"crypto\""))
        #expect(sampleC.contains("\"\(ScratchManifest.identity(ofPackageAt: repositoryRoot))\""))
    }

    @Test func anUnchangedManifestIsNotRewritten() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-manifest-same-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try sample().write(into: directory))
        #expect(try !sample().write(into: directory))
        var changed = sample()
        changed.cxx17 = false
        #expect(try changed.write(into: directory))
    }

    @Test func aFileAddedToAWireproofTargetChangesTheManifest() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-manifest-root-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/Sources/Runtime", withIntermediateDirectories: true)
        try Data("// swift-tools-version:6.2\n".utf8).write(to: URL(fileURLWithPath: root + "/Package.swift"))
        try Data("let a = 1\n".utf8).write(to: URL(fileURLWithPath: root + "/Sources/Runtime/A.swift"))
        let before = sample(root: root).render(directory: "/tmp/x")
        #expect(sample(root: root).render(directory: "/tmp/x") == before)
        // A file's contents are SwiftPM's to track; a new file in a dependency target is not.
        try Data("let a = 2\n".utf8).write(to: URL(fileURLWithPath: root + "/Sources/Runtime/A.swift"))
        #expect(sample(root: root).render(directory: "/tmp/x") == before)
        try Data("let b = 1\n".utf8).write(to: URL(fileURLWithPath: root + "/Sources/Runtime/B.swift"))
        let added = sample(root: root).render(directory: "/tmp/x")
        #expect(added != before)
        try Data("// swift-tools-version:6.2\n// changed\n".utf8).write(to: URL(fileURLWithPath: root + "/Package.swift"))
        #expect(sample(root: root).render(directory: "/tmp/x") != added)
    }

    @Test func wireproofIsAPathRelativeToThePackage() {
        #expect(ScratchManifest.relativePath(from: "/a/b/c", to: "/a/x") == "../../x")
        #expect(ScratchManifest.relativePath(from: "/a/b", to: "/a/b") == ".")
        #expect(ScratchManifest.relativePath(from: "/a", to: "/a/b/c") == "b/c")
        #expect(sample(root: "/srv/Wire-Proof").render(directory: "/srv/Wire-Proof/.scratch/x")
            .contains(#".package(path: "../.."),"#))
        #expect(sample(root: "/srv/Wire-Proof").render(directory: "/tmp")
            .contains(#".product(name: "CNanopb", package: "wire-proof")"#))
    }

    @Test func dependenciesParseAsTargetsOrProducts() {
        #expect(ScratchManifest.Dependency(parsing: "SharedC") == .target("SharedC"))
        #expect(ScratchManifest.Dependency(parsing: "wireproof:CNanopb") == .product("CNanopb", package: "wireproof"))
    }

    /// Every Package.swift a tool or script writes goes through ScratchManifest: no other source
    /// spells manifest text. Hidden folders are build output (Fuzz/.build, Fuzz/.build-scoped of the
    /// scoped fuzz build, their SwiftPM checkouts), not sources.
    @Test func noOtherSourceWritesManifestText() throws {
        var writers: [String] = []
        for folder in ["scripts", "Sources", "Benchmarks", "mk", "Fuzz", "Conformance", "Peers"] {
            guard let files = FileManager.default.enumerator(atPath: repositoryRoot + "/" + folder) else { continue }
            for case let file as String in files where !file.hasSuffix("Package.swift") && !file.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                let path = "\(repositoryRoot)/\(folder)/\(file)"
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                if String(decoding: data, as: UTF8.self).contains("swift-tools-version") { writers.append("\(folder)/\(file)") }
            }
        }
        #expect(writers == ["Sources/Tools/ProveKit/ScratchManifest.swift"])
    }
}
