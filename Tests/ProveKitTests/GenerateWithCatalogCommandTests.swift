import ArgumentParser
import Foundation
import Testing
@testable import ProveKit

/// `wireproof generate`: a catalog needs facades for every type, and the schema folder it records
/// is the one given, else relative to the current folder, never absolute.
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
}
