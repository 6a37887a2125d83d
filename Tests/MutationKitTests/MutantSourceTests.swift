// Where a layer's mutants come from: each file's rule set by its extension (read once), files with
// no rule set left alone, and a file's lines split the way the rules see them.

import Foundation
import Testing
@testable import MutationKit
import TestSupport

@Suite struct MutantSourceTests {
    /// A tree with one rule file (`true` → `false` for Swift, `==` → `!=` for C) and a layer of three
    /// files: Swift, C and a text file no rule file covers.
    static func tree() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("mutant-source")
        let write = { (path: String, text: String) in
            let full = folder.path + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        try write("scripts/mutation/swift.rules", "\\btrue\\b ==> false\n")
        try write("scripts/mutation/c.rules", " ==(?= ) ==>  !=\n")
        try write("Sources/X/a.swift", "let a = true\nlet b = true\n")
        try write("Sources/X/b.c", "int c = 1 == 2;\n")
        try write("Sources/X/notes.txt", "true == true\n")
        return folder
    }

    @Test func eachFileTakesTheRulesOfItsLanguageAndOtherFilesNone() throws {
        let folder = try Self.tree()
        var source = MutantSource(root: folder.path)
        let mutants = try source.mutants(of: Layer("x", ["Sources/X/*"], ""))
        #expect(mutants.map { "\($0.path):\($0.line) \($0.mutated)" } == [
            "Sources/X/a.swift:1 let a = false\n", "Sources/X/a.swift:2 let b = false\n", "Sources/X/b.c:1 int c = 1 != 2;\n"])
        #expect(mutants.allSatisfy { $0.layer.name == "x" })
    }

    @Test func aLayerFileThatIsNotUTF8StopsTheRunNamingIt() throws {
        let folder = try Self.tree()
        try Data([0x6c, 0x65, 0x74, 0xff, 0xfe, 0x0a]).write(to: URL(fileURLWithPath: folder.path + "/Sources/X/bad.swift"))
        var source = MutantSource(root: folder.path)
        #expect(throws: RuleFileError.unreadable(path: "Sources/X/bad.swift")) {
            try source.mutants(of: Layer("x", ["Sources/X/*.swift"], ""))
        }
    }

    @Test func aMissingRuleFileStopsTheRun() throws {
        let folder = try Self.tree()
        try FileManager.default.removeItem(atPath: folder.path + "/scripts/mutation/c.rules")
        var source = MutantSource(root: folder.path)
        #expect(throws: RuleFileError.self) { try source.mutants(of: Layer("x", ["Sources/X/*.c"], "")) }
    }

    @Test func linesKeepTheirNewlinesAndTheLastOneOnlyIfTheFileEndsInOne() {
        #expect(SourceLines.split("a\nb\n") == ["a\n", "b\n"])
        #expect(SourceLines.split("a\nb") == ["a\n", "b"])
        #expect(SourceLines.split("a\n\n") == ["a\n", "\n"])
        #expect(SourceLines.split("") == [])
    }
}

@Suite struct SwiftCallersTouchTests {
    @Test func everySwiftFileOutsideTheRuntimeIsMarkedChangedAndNothingElse() throws {
        let folder = try TemporaryFolder("touch")
        let files = ["Sources/A/a.swift", "Sources/Shipped/NanopbRuntime/r.swift", "Tests/T/t.swift", "Sources/A/c.c", "Other/o.swift"]
        let old = Date(timeIntervalSince1970: 946_684_800)
        for path in files {
            let full = folder.path + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "x\n".write(toFile: full, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: full)
        }
        SwiftCallers.touch(tree: folder.path)
        let touched = try files.filter {
            try FileManager.default.attributesOfItem(atPath: folder.path + "/" + $0)[.modificationDate] as? Date != old
        }
        #expect(touched == ["Sources/A/a.swift", "Tests/T/t.swift"])
    }

    @Test func aFileWithNoFunctionAboveTheLineIsNotTransparent() throws {
        let folder = try TemporaryFolder("transparent")
        try "@_transparent\nlet x = 1\n".write(toFile: folder.path + "/g.swift", atomically: true, encoding: .utf8)
        #expect(!SwiftCallers.inTransparentFunction(tree: folder.path, path: "g.swift", line: 2))
    }
}
