import Foundation
import Testing
@testable import MutationKit

@Suite struct PlantTests {
    let plantsText = """
        # header
        plant bug src/a.swift  what it breaks
        -    let x = 1
        +    let x = 2  // PLANTED
        plant gone src/a.swift  deletes a line
        -    f()
        plant twice src/a.swift  not unique
        -    g()

        """

    /// A folder with src/a.swift and an empty plant record, as `ScratchTree.prepare` leaves one.
    func scratch() throws -> String {
        let root = NSTemporaryDirectory() + "mutation-plants-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/src", withIntermediateDirectories: true)
        try "func a() {\n    let x = 1\n    f()\n    g()\n    h()\n    g()\n}\n".write(toFile: root + "/src/a.swift", atomically: true, encoding: .utf8)
        try Plants.write([], in: root)
        return root
    }

    @Test func plantsTextGivesEachPlantItsFileAndExactLines() {
        let plants = Plants.parse(plantsText)
        #expect(plants.map(\.name) == ["bug", "gone", "twice"])
        #expect(plants[0] == Plant(name: "bug", path: "src/a.swift", old: "    let x = 1\n", new: "    let x = 2  // PLANTED\n"))
        #expect(plants[1].new == "")
    }

    @Test func aPlantReplacesItsLinesOnceAndUnplantPutsTheFileBack() throws {
        let tree = try scratch()
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let plants = Plants.parse(plantsText)
        let before = try String(contentsOfFile: tree + "/src/a.swift", encoding: .utf8)
        try Plants.apply(plants[0], in: tree)
        try Plants.apply(plants[1], in: tree)
        #expect(try String(contentsOfFile: tree + "/src/a.swift", encoding: .utf8) == "func a() {\n    let x = 2  // PLANTED\n    g()\n    h()\n    g()\n}\n")
        try Plants.unplant(in: tree)
        #expect(try String(contentsOfFile: tree + "/src/a.swift", encoding: .utf8) == before)
        try Plants.check(plants[0], in: tree)
    }

    @Test func linesFoundOtherThanOnceAreRefused() throws {
        let tree = try scratch()
        defer { try? FileManager.default.removeItem(atPath: tree) }
        #expect(throws: PlantError("twice: its lines are in src/a.swift 2 times, not once (the code changed?)")) {
            try Plants.apply(Plants.parse(plantsText)[2], in: tree)
        }
    }

    @Test func aFileBehindALinkOutOfTheCopyOrAFolderWithoutARecordIsRefused() throws {
        let tree = try scratch(), outside = try scratch()
        defer { try? FileManager.default.removeItem(atPath: tree); try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.removeItem(atPath: tree + "/src")
        try FileManager.default.createSymbolicLink(atPath: tree + "/src", withDestinationPath: outside + "/src")
        #expect(throws: PlantError.self) { try Plants.apply(Plants.parse(plantsText)[0], in: tree) }
        try FileManager.default.removeItem(atPath: outside + "/.git/planted.json")
        #expect(throws: PlantError.self) { try Plants.apply(Plants.parse(plantsText)[0], in: outside) }
        #expect(try String(contentsOfFile: outside + "/src/a.swift", encoding: .utf8).contains("let x = 1"))
    }

    @Test func theRepositorysPlantsAllParse() throws {
        let text = try String(contentsOfFile: RepositoryPaths.root + "/scripts/mutation/plants.txt", encoding: .utf8)
        let plants = Plants.parse(text)
        #expect(plants.count == 11)
        #expect(plants.allSatisfy { !$0.old.isEmpty })
    }

    @Test func everyPlantsLinesAreInItsFileExactlyOnce() throws {
        let text = try String(contentsOfFile: RepositoryPaths.root + "/scripts/mutation/plants.txt", encoding: .utf8)
        for plant in Plants.parse(text) {
            let path = RepositoryPaths.root + "/" + plant.path
            // What setup.sh unpacks or stages is there once `make setup` ran; the committed sources always are.
            let staged = plant.path.hasPrefix(".deps/") || plant.path.hasPrefix("Sources/Shipped/CNanopb/runtime/")
            guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
                #expect(staged, "\(plant.name): no \(plant.path)")
                continue
            }
            let found = ("\n" + source).components(separatedBy: "\n" + plant.old).count - 1
            #expect(found == 1, "\(plant.name): its lines are in \(plant.path) \(found) times")
        }
    }
}

@Suite struct TransparentFunctionTests {
    @Test func aLineInAFunctionMarkedTransparentIsFoundAndACommentNamingTheAttributeIsNot() throws {
        let tree = NSTemporaryDirectory() + "mutation-transparent-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let source = "@_transparent\nfunc a() {\n    x()\n}\n/// Not `@_transparent`.\nfunc b() {\n    y()\n}\n"
        try source.write(toFile: tree + "/f.swift", atomically: true, encoding: .utf8)
        #expect(SwiftCallers.inTransparentFunction(tree: tree, path: "f.swift", line: 3))
        #expect(!SwiftCallers.inTransparentFunction(tree: tree, path: "f.swift", line: 7))
        #expect(!SwiftCallers.inTransparentFunction(tree: tree, path: "f.c", line: 3))
    }
}
