import Foundation
import ProtoGenKit
import Testing
@testable import ProveKit
import TestSupport

/// What `wireproof link-check` compares the program with and asks generation for: the shared
/// schema root it stages, protoc's encoding of each expectation, each schema over the shared
/// module, and the lines of a failed build it shows.
@Suite struct LinkedSchemasEncodingTests {
    @Test func protocEncodesEachExpectationFromTheStagedSharedRoot() throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: package) }
        let check = LinkedSchemasCheck(root: repositoryRoot, package: package)
        try FileManager.default.createDirectory(atPath: package + "/Protos/stale", withIntermediateDirectories: true)
        try check.stageSharedProtos()
        let staged = try FileManager.default.subpathsOfDirectory(atPath: package + "/Protos").filter { $0.hasSuffix(".proto") }.sorted()
        #expect(staged == ["Shared/google/protobuf/duration.proto", "Shared/google/protobuf/timestamp.proto", "Shared/linked/common.proto"])
        #expect(!FileManager.default.fileExists(atPath: package + "/Protos/stale"))

        // Timestamp {1700000000, 5} is 08 80e2cfaa06 10 05; Tag {"shared", 3} is 0a 06 "shared" 10 03.
        let timestamp = "0880e2cfaa061005", tag = "0a067368617265641003"
        let alpha = try check.encode(LinkedSchemasCheck.expectations[0])
        #expect(alpha == "0a05" + "7374617274" + "1208" + timestamp + "1a0a" + tag)
        // values [1, -1, 300] packed: 01, ten bytes of -1, ac02 (13 bytes); Duration {2} is 08 02.
        let beta = try check.encode(LinkedSchemasCheck.expectations[1])
        #expect(beta == "0a08" + timestamp + "120a" + tag + "1a020802" + "220d" + "01" + "ffffffffffffffffff01" + "ac02")
    }

    @Test func aSchemaIsGeneratedOverTheSharedModuleAndTheSharedOneAlone() {
        let check = LinkedSchemasCheck(root: "/w", package: "/p")
        let shared = check.generationRequest("Shared", protos: "/p/Protos/Shared", external: nil)
        #expect(shared.protoDirectory == "/p/Protos/Shared")
        #expect(shared.cOut == "/p/Sources/SharedC")
        #expect(shared.swiftOut == "/p/Sources/Shared")
        #expect(shared.protoPaths.isEmpty && shared.external == nil)
        let modules = ExternalModules(facadeModule: "Shared", cModule: "SharedC")
        let alpha = check.generationRequest("Alpha", protos: "/w/Tests/Schemas/linked/alpha", external: modules)
        #expect(alpha.cOut == "/p/Sources/AlphaC" && alpha.swiftOut == "/p/Sources/Alpha")
        #expect(alpha.protoPaths == ["/p/Protos/Shared"])
        #expect(alpha.external == modules)
    }

    @Test func aFailedBuildShowsAtMostTwentyErrorAndDuplicateSymbolLines() {
        let log = "Compiling a\nerror: no such module\nwarning: x\nld: multiple definition of `pb_x'\n"
        #expect(LinkedSchemasCheck.buildErrors(log) == ["error: no such module", "ld: multiple definition of `pb_x'"])
        let many = (1...25).map { "error: \($0)" }.joined(separator: "\n")
        #expect(LinkedSchemasCheck.buildErrors(many) == (1...20).map { "error: \($0)" })
    }
}
