import Foundation
import Testing
@testable import MutationKit

@Suite struct LayerCoverageTests {
    /// A scratch repository layout with the given files (empty), removed by the caller.
    func tree(_ files: [String]) throws -> String {
        let root = NSTemporaryDirectory() + "mutation-layers-" + UUID().uuidString
        for file in files {
            try FileManager.default.createDirectory(atPath: (root + "/" + file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: root + "/" + file, contents: Data()))
        }
        return root
    }

    @Test func aScriptOrSwiftFileInNoLayerAndNotUnlayeredIsReported() throws {
        let root = try tree(["scripts/a.sh", "scripts/sub/b.py", "scripts/c.txt", "Sources/X/y.swift", "Sources/Generated/G/g.swift",
                             "Sources/X/.hidden.swift", "scripts/d.sh"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let layer = Layer("x", ["Sources/X/*.swift", "scripts/a.sh"], "XTests")
        #expect(LayerCoverage.uncovered(root: root, layers: [layer], unlayered: ["scripts/d.sh"]) == ["scripts/sub/b.py"])
        #expect(LayerCoverage.uncovered(root: root, layers: [], unlayered: []) == ["Sources/X/y.swift", "scripts/a.sh", "scripts/d.sh", "scripts/sub/b.py"])
    }

    @Test func aStarMatchesWithinOneFolderOnly() throws {
        let root = try tree(["Sources/A/x.swift", "Sources/A/B/y.swift"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(LayerCoverage.files(matching: ["Sources/A/*.swift"], root: root) == ["Sources/A/x.swift"])
        #expect(LayerCoverage.files(matching: ["Sources/*/*/*.swift"], root: root) == ["Sources/A/B/y.swift"])
    }

    @Test func everyFileOfThisRepositoryHasALayerOrAReason() {
        #expect(LayerCoverage.uncovered(root: RepositoryPaths.root) == [])
    }

    @Test func layerNamesAreUniqueAndTheFirstEightAreSampled() {
        #expect(Set(Layer.all.map(\.name)).count == Layer.all.count)
        #expect(Layer.all.prefix(8).allSatisfy { $0.sampled })
    }
}
