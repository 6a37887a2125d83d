// `protogen plan`: the report lines it hands its printer, the JSON it returns, the type selection
// `--prune-sources` makes, and the folders the source scanner reads and refuses.

import Foundation
import Testing
@testable import ProtoGenKit
import TestSupport

@Suite struct PlanCommandTests {
    /// A folder holding e.proto (one message, one extension of it) and its descriptor set.
    static func compiledExtensionSchema() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("plan-command")
        let proto = "syntax = \"proto2\"; package e;\nmessage M { optional int32 v = 1; extensions 10 to 20; }\nextend M { optional int32 x = 10; }\n"
        try proto.write(toFile: folder.path + "/e.proto", atomically: true, encoding: .utf8)
        try run("/usr/bin/protoc", ["-I.", "--include_imports", "--descriptor_set_out=set.pb", "e.proto"], in: URL(fileURLWithPath: folder.path))
        return folder
    }

    @Test func theReportGoesToThePrinterAndThePlanJSONIsTheResult() throws {
        let folder = try Self.compiledExtensionSchema()
        let command = try PlanCommand.parse(["--descriptor-set", folder.path + "/set.pb"])
        var lines: [String] = []
        let output = try command.generate { lines.append($0) }
        #expect(lines == ["protogen: extension skipped: e.proto: extension e.x (field 10 of e.M): " + FacadePlan.extensionSkipReason])
        #expect(output == [ProtoGen.planJSON(try command.buildPlan())])
        #expect(try command.buildPlan().emitted.sorted() == ["e.M"])
    }

    @Test func pruneSourcesPlanOnlyTheTypesTheSourcesSpell() throws {
        let folder = try Self.compiledExtensionSchema()
        let sources = try TemporaryFolder("plan-sources")
        try "let unrelated = 1\n".write(toFile: sources.path + "/Use.swift", atomically: true, encoding: .utf8)
        let command = try PlanCommand.parse(["--descriptor-set", folder.path + "/set.pb", "--prune-sources", sources.path])
        #expect(try command.buildPlan().emitted.isEmpty)
    }

    @Test func aMissingDescriptorSetIsNamedWithItsErrno() throws {
        let command = try PlanCommand.parse(["--descriptor-set", "/nonexistent/set.pb"])
        #expect(throws: GeneratorError.schema(.unreadable(path: "/nonexistent/set.pb", errno: ENOENT))) { try command.generate { _ in } }
    }

    @Test func theScannerReadsEverySwiftSourceButFacadesAndRefusesWhatIsNotAFolder() throws {
        let sources = try TemporaryFolder("scanner")
        try FileManager.default.createDirectory(atPath: sources.path + "/sub", withIntermediateDirectories: true)
        try "let a: Alpha.Beta\n".write(toFile: sources.path + "/A.swift", atomically: true, encoding: .utf8)
        try "Gamma()".write(toFile: sources.path + "/sub/B.swift", atomically: true, encoding: .utf8)
        try "Facade".write(toFile: sources.path + "/F.pb.swift", atomically: true, encoding: .utf8)
        try "Notes".write(toFile: sources.path + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(try SourceScanner.identifiers(in: [sources.path]) == ["let", "a", "Alpha.Beta", "Gamma"])
        let file = sources.path + "/A.swift"
        #expect(throws: GeneratorError.io(path: file, reason: "not a folder (--prune-sources)")) { try SourceScanner.identifiers(in: [file]) }
        let missing = sources.path + "/missing"
        #expect(throws: GeneratorError.io(path: missing, reason: "not a folder (--prune-sources)")) { try SourceScanner.identifiers(in: [missing]) }
        // A folder named like a source cannot be read as one.
        try FileManager.default.createDirectory(atPath: sources.path + "/sub/Dir.swift", withIntermediateDirectories: true)
        #expect(throws: GeneratorError.io(path: sources.path + "/sub/Dir.swift", reason: "cannot read")) {
            try SourceScanner.identifiers(in: [sources.path])
        }
    }
}
