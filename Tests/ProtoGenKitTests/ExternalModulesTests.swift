// Several schemas in one program: files outside the roots come from modules another schema's
// generation made, so this one holds no C for them and its facades import those modules.

import Foundation
import Testing
@testable import ProtoGenKit
import TestSupport

@Suite struct ExternalModulesTests {
    static let files = [
        "app.proto": "syntax = \"proto3\"; package app; import \"shared.proto\"; message Order { shared.Money total = 1; }",
        "shared.proto": "syntax = \"proto3\"; package shared; message Money { int64 units = 1; }",
    ]

    @Test func filesOutsideTheRootsAreLeftToTheExternalModulesWhichTheFacadesImport() throws {
        let inputs = PlanInputs(roots: ["app.proto"], external: ExternalModules(facadeModule: "SharedFacades", cModule: "SharedC"))
        let plan = try FacadePlan(schema: compileSchema(Self.files), inputs: inputs)
        #expect(plan.cClosure == ["shared.proto", "app.proto"], "the C of both is reachable")
        #expect(plan.cFiles == ["app.proto"], "only the roots' C is generated here")
        #expect(plan.emitted == ["app.Order"])
        let facades = try ProtoGen.facades(schema: plan.schema, cModule: "AppC", inputs: inputs)
        #expect(facades.map(\.name) == ["app.pb.swift"])
        let text = try #require(facades.first?.contents)
        #expect(text.contains("import CNanopb\nimport AppC\nimport SharedC\nimport SharedFacades\n"))
    }

    @Test func withoutExternalModulesTheImportedFileIsGeneratedHereAndNothingMoreIsImported() throws {
        let inputs = PlanInputs(roots: ["app.proto"])
        let plan = try FacadePlan(schema: compileSchema(Self.files), inputs: inputs)
        #expect(plan.cFiles == ["shared.proto", "app.proto"])
        let text = try ProtoGen.facades(schema: plan.schema, cModule: "AppC", inputs: inputs).map(\.contents).joined()
        #expect(text.contains("import CNanopb\nimport AppC\n"))
        #expect(!text.contains("import SharedC"))
    }

    @Test func theCommandLinesSpellingsBecomeTheSameExternalModules() throws {
        let generate = try GenerateOptions.parse(["--proto-dir", "p", "--c-out", "c", "--swift-out", "s", "--external-module", "SharedFacades:SharedC"])
        #expect(generate.request.external == ExternalModules(facadeModule: "SharedFacades", cModule: "SharedC"))
        #expect(try GenerateOptions.parse(["--proto-dir", "p", "--c-out", "c", "--swift-out", "s"]).request.external == nil)
        #expect(throws: (any Error).self) {
            try GenerateOptions.parse(["--proto-dir", "p", "--c-out", "c", "--swift-out", "s", "--external-module", "SharedFacades"])
        }
        let plan = try PlanInputOptions.parse(["--descriptor-set", "x.pb", "--external-facade-module", "SharedFacades", "--external-c-module", "SharedC"])
        #expect(try plan.inputs(selection: .all).external == ExternalModules(facadeModule: "SharedFacades", cModule: "SharedC"))
        #expect(throws: (any Error).self) { try PlanInputOptions.parse(["--descriptor-set", "x.pb", "--external-c-module", "SharedC"]) }
    }
}
