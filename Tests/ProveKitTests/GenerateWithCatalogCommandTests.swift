import ArgumentParser
import Foundation
import Testing
@testable import ProveKit
import TestSupport

/// `wireproof generate`: a catalog needs facades for every type, and the schema folder it records
/// is the one given, else relative to the current folder, never absolute; a run reports the
/// catalog last, after C and facades, and writes none when none is due.
@Suite struct GenerateWithCatalogCommandTests {
    private func command(_ arguments: [String]) throws -> GenerateWithCatalogCommand {
        try GenerateWithCatalogCommand.parse(["--proto-dir", "Protos", "--c-out", "/o/C", "--catalog-out", "/o/Catalog"] + arguments)
    }

    @Test func aCatalogNeedsFacadesForEveryType() throws {
        _ = try command(["--swift-out", "/o/F"])
        for extra in [[], ["--swift-out", "/o/F", "--c-only"], ["--swift-out", "/o/F", "--prune-sources", "a.proto"]] {
            #expect(throws: (any Error).self, "\(extra)") { try command(extra) }
        }
    }

    @Test func theRecordedSchemaFolderIsTheHintElseRelativeToTheCurrentFolder() throws {
        #expect(try command(["--swift-out", "/o/F", "--proto-dir-hint", "Tests/Schemas/x"]).hint == "Tests/Schemas/x")
        let cwd = FileManager.default.currentDirectoryPath
        let inside = try GenerateWithCatalogCommand.parse(["--proto-dir", cwd + "/Protos/rtm/..", "--c-out", "/o/C", "--swift-out", "/o/F",
                                                           "--catalog-out", "/o/Catalog"])
        #expect(inside.hint == "Protos")
        let outside = try GenerateWithCatalogCommand.parse(["--proto-dir", "/nonexistent-schema", "--c-out", "/o/C", "--swift-out", "/o/F",
                                                            "--catalog-out", "/o/Catalog"])
        #expect(outside.hint == nil)
    }

    @Test func wireproofGenerateWritesTheCatalogByTheSameRuleAndOnlyWithFacadesForEveryType() throws {
        let bundled = ["--proto-dir", "Protos", "--c-out", "Sources/Generated/BundledProtoC", "--swift-out", "Sources/Generated/BundledProto"]
        #expect(try GenerateWithCatalogCommand.parse(bundled).catalog == "Sources/Generated/BundledProtoCatalog")
        #expect(try GenerateWithCatalogCommand.parse(bundled + ["--catalog-out", ""]).catalog == nil)
        #expect(try GenerateWithCatalogCommand.parse(bundled + ["--catalog-out", "Cat"]).catalog == "Cat")
        let mine = ["--proto-dir", "Mine", "--c-out", "Sources/MineC", "--swift-out", "Sources/Mine"]
        #expect(try GenerateWithCatalogCommand.parse(mine).catalog == nil)
        #expect(try GenerateWithCatalogCommand.parse(bundled + ["--prune-sources", "Sources/App"]).catalog == nil,
                "a pruned run of the bundled schema writes no catalog, so it parses")
        #expect(try GenerateWithCatalogCommand.parse(["--proto-dir", "Protos", "--c-out", "C", "--c-only"]).catalog == nil)
        #expect(throws: (any Error).self) { try GenerateWithCatalogCommand.parse(mine + ["--prune-sources", "Sources/App", "--catalog-out", "Cat"]) }
        #expect(throws: (any Error).self) { try GenerateWithCatalogCommand.parse(["--proto-dir", "Mine", "--c-out", "C", "--c-only", "--catalog-out", "Cat"]) }
    }

    @Test func aRunWithACatalogReportsItLastAndOneWithoutWritesNone() throws {
        let work = try TemporaryFolder("generate-catalog")
        try FileManager.default.createDirectory(atPath: work.path + "/protos", withIntermediateDirectories: true)
        try Data("syntax = \"proto3\";\nmessage Small { int32 a = 1; }\n".utf8).write(to: URL(fileURLWithPath: work.path + "/protos/small.proto"))
        let base = ["--proto-dir", work.path + "/protos", "--c-out", work.path + "/SmallC", "--swift-out", work.path + "/Small"]
        let with = try GenerateWithCatalogCommand.parse(base + ["--catalog-out", work.path + "/SmallCatalog"]).generate()
        #expect(with.last == "proto: catalog in \(work.path)/SmallCatalog", "\(with)")
        #expect(with.contains("proto: facades in \(work.path)/Small"))
        #expect(with.firstIndex { $0.hasPrefix("proto: C target SmallC in ") } ?? .max < with.firstIndex { $0.hasPrefix("proto: facades in ") } ?? -1)
        #expect(!GeneratedFolderSync.regularFiles(under: work.path + "/SmallCatalog").isEmpty)
        let without = try GenerateWithCatalogCommand.parse(base).generate()
        #expect(without.last == "proto: facades in \(work.path)/Small", "\(without)")
        #expect(!without.contains { $0.hasPrefix("proto: catalog in ") })
    }
}
