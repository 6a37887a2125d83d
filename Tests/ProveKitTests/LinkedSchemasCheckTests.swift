import Foundation
import Testing
@testable import ProveKit
import TestSupport


/// `wireproof link-check`: two schemas sharing imports in one program (the build itself runs in
/// `make check-foreign`; these pin what decides its verdict).
@Suite struct LinkedSchemasCheckTests {
    @Test func eachSchemasCTargetDependsOnTheSharedOneOnly() {
        let manifest = LinkedSchemasCheck.manifest(root: repositoryRoot)
        let byName = Dictionary(uniqueKeysWithValues: manifest.targets.map { ($0.name, $0) })
        #expect(manifest.targets.map(\.name) == ["SharedC", "Shared", "AlphaC", "Alpha", "BetaC", "Beta", "Linked"])
        for name in ["Alpha", "Beta"] {
            #expect(byName[name + "C"]?.dependencies == [.target("SharedC"), .product("CNanopb", package: "wireproof")])
            #expect(byName[name]?.dependencies.contains(.target("Shared")) == true)
        }
        #expect(byName["Linked"]?.isExecutable == true)
        #expect(manifest.targets.filter(\.isExecutable).count == 1)
    }

    @Test func cOfASharedFileInASchemasTargetIsFoundAndRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linked-c-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for sub in ["include/linked", "include/google/protobuf"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
        }
        try Data().write(to: URL(fileURLWithPath: folder + "/include/linked/alpha.pb.h"))
        #expect(LinkedSchemasCheck.sharedHeaders(inCTarget: folder).isEmpty)
        #expect(throws: Never.self) { try LinkedSchemasCheck.refuseSharedC(of: "Alpha", cTarget: folder) }
        try Data().write(to: URL(fileURLWithPath: folder + "/include/linked/common.pb.h"))
        try Data().write(to: URL(fileURLWithPath: folder + "/include/google/protobuf/timestamp.pb.h"))
        #expect(LinkedSchemasCheck.sharedHeaders(inCTarget: folder) == ["google/protobuf/timestamp.pb.h", "linked/common.pb.h"])
        do {
            try LinkedSchemasCheck.refuseSharedC(of: "Alpha", cTarget: folder)
            Issue.record("a target holding shared C was let through")
        } catch {
            #expect("\(error)" == "AlphaC holds C of a shared file: google/protobuf/timestamp.pb.h linked/common.pb.h")
        }
    }

    @Test func bytesOtherThanProtocsOrMissingAreMismatches() {
        let expected = ["alpha.Event": "0a05", "beta.Record": "1203"]
        #expect(LinkedSchemasCheck.mismatches(programOutput: "alpha.Event 0a05\nbeta.Record 1203\n", expected: expected).isEmpty)
        #expect(LinkedSchemasCheck.mismatches(programOutput: "alpha.Event 0a05\nbeta.Record 1204\n", expected: expected)
            == ["beta.Record: the program wrote other bytes than protoc --encode (1203)"])
        #expect(LinkedSchemasCheck.mismatches(programOutput: "alpha.Event 0a05\n", expected: expected)
            == ["beta.Record: the program printed no bytes"])
    }

    /// The program and the expectations name the same messages, so no message goes unchecked.
    @Test func everyMessageTheProgramPrintsIsExpected() throws {
        let program = try String(contentsOfFile: repositoryRoot + "/Tests/Schemas/linked/program/main.swift", encoding: .utf8)
        let printed = program.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #"print\("([A-Za-z]+\.[A-Za-z]+) \\"#, options: .regularExpression) else { return nil }
            return String(line[range].dropFirst("print(\"".count).dropLast(2))
        }
        #expect(printed.sorted() == LinkedSchemasCheck.expectations.map(\.label).sorted())
    }

    @Test func wireproofParsesLinkCheckWithItsScratchFolder() async throws {
        let command = try #require(try WireproofCommand.parseAsRoot(["link-check", "--scratch", "/tmp/linked"]) as? LinkCheckCommand)
        #expect(command.scratch == "/tmp/linked")
        #expect(await WireproofCommand.main(["link-check", "--bogus"]) == 2)
    }
}
