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
}
