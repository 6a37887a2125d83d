import Foundation
import Testing
@testable import MutationKit
import TestSupport

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

    @Test func aPlantLineWithoutANameAndAFileIsSkippedWithItsLines() {
        let plants = Plants.parse("plant bare src/b.swift\n-x\nplant lonely\n-y\n+z\nplant next src/c.swift\n-w\n")
        #expect(plants == [Plant(name: "bare", path: "src/b.swift", old: "x\n", new: ""),
                           Plant(name: "next", path: "src/c.swift", old: "w\n", new: "")], "a description is optional")
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

    @Test func aPlantLineWithoutAFileIsNoPlantAndLinesBeforeAnyPlantAreIgnored() {
        let plants = Plants.parse("-stray\nplant lonely\nplant ok src/a.swift  fine\n-a\n+b\n")
        #expect(plants == [Plant(name: "ok", path: "src/a.swift", old: "a\n", new: "b\n")])
    }

    @Test func aPlantIsRecordedWithWhetherItsLineIsInATransparentFunction() throws {
        let tree = try scratch()
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let source = "@_transparent\nfunc t() {\n    inside()\n}  // end t\nfunc u() {\n    outside()\n}\n"
        try source.write(toFile: tree + "/src/t.swift", atomically: true, encoding: .utf8)
        // Line 4 closes the transparent function; line 5 opens the next one.
        try Plants.apply(Plant(name: "end", path: "src/t.swift", old: "}  // end t\n", new: "}\n"), in: tree, touch: true)
        try Plants.apply(Plant(name: "next", path: "src/t.swift", old: "func u() {\n", new: "func v() {\n"), in: tree, touch: true)
        try Plants.apply(Plant(name: "off", path: "src/t.swift", old: "    inside()\n", new: "    other()\n"), in: tree, touch: false)
        #expect(try Plants.record(in: tree).map(\.touch) == [true, false, false])
        try Plants.unplant(in: tree)
        #expect(try String(contentsOfFile: tree + "/src/t.swift", encoding: .utf8) == source)
        #expect(try Plants.record(in: tree).isEmpty, "unplanting empties the record")
    }

    @Test func checkingAPlantThatChangesNothingFails() throws {
        let tree = try scratch()
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let same = Plant(name: "same", path: "src/a.swift", old: "    h()\n", new: "    h()\n")
        #expect(throws: PlantError("same: \(tree)/src/a.swift did not change, or did not come back as it was")) {
            try Plants.check(same, in: tree)
        }
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
    /// Whether each line of `source` (as f.swift in a fresh folder) is inside a `@_transparent` function.
    static func transparent(_ source: String, path: String = "f.swift") throws -> (Int) -> Bool {
        let folder = try TemporaryFolder("mutation-transparent")
        try source.write(toFile: folder.path + "/f.swift", atomically: true, encoding: .utf8)
        return { line in SwiftCallers.inTransparentFunction(tree: folder.path, path: path, line: line) }
    }

    @Test func aLineInAFunctionMarkedTransparentIsFoundAndACommentNamingTheAttributeIsNot() throws {
        let source = "@_transparent\nfunc a() {\n    x()\n}\n/// Not `@_transparent`.\nfunc b() {\n    y()\n}\n"
        let transparent = try Self.transparent(source)
        #expect(transparent(3))
        #expect(!transparent(7))
        #expect(try !Self.transparent(source, path: "f.c")(3))
    }

    @Test func aFuncAtTheStartOfALineOrAfterModifiersIsTheFunctionAndTheAttributeMayStandThreeLinesAbove() throws {
        let source = [
            "@_transparent", "func top() {", "    a()", "}",                                           // 1-4
            "struct S {", "    @_transparent", "    public func member() {", "        b()", "    }",   // 5-9
            "    func plain() {", "        c()", "    }",                                           // 10-12
            "    @_transparent", "    @inlinable", "    @usableFromInline", "    func threeAbove() {", "        d()", "    }", // 13-18
            "    @_transparent", "    @inlinable", "    @usableFromInline", "    // a comment", "    func fourAbove() {", "        e()", "    }", // 19-25
            "}",
        ].joined(separator: "\n") + "\n"
        let transparent = try Self.transparent(source)
        #expect(transparent(3), "func at the start of its line")
        #expect(transparent(4), "the closing brace is still the function's")
        #expect(transparent(8), "func after a modifier")
        #expect(!transparent(11), "the next function is not marked")
        #expect(transparent(17), "the attribute three lines above the func")
        #expect(!transparent(24), "four lines above is another declaration's")
    }

    @Test func blankLinesCountAsLinesWhenFindingTheFunction() throws {
        // Line 5 is the first line of the plain function after two blank lines.
        let transparent = try Self.transparent("@_transparent\nfunc t() {}\n\n\nfunc u() {\n    x()\n}\n")
        #expect(!transparent(6))
        #expect(transparent(4), "a blank line after t is still below t")
    }

    @Test func touchingMarksEverySwiftFileOutsideTheRuntimeChangedAndNothingElse() throws {
        let folder = try TemporaryFolder("mutation-touch"), tree = folder.path
        let fm = FileManager.default
        let files = ["Sources/App/a.swift", "Tests/AppTests/b.swift", "Sources/Shipped/NanopbRuntime/c.swift", "Sources/App/d.c", "Other/e.swift"]
        let old = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
        for file in files {
            try fm.createDirectory(atPath: tree + "/" + (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "x\n".write(toFile: tree + "/" + file, atomically: true, encoding: .utf8)
            try fm.setAttributes([.modificationDate: old], ofItemAtPath: tree + "/" + file)
        }
        SwiftCallers.touch(tree: tree)
        let touched = try files.filter { try fm.attributesOfItem(atPath: tree + "/" + $0)[.modificationDate] as? Date != old }
        #expect(touched == ["Sources/App/a.swift", "Tests/AppTests/b.swift"])
    }
}
