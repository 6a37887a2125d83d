// The generation plan as a document (`protogen generate --plan-out`): what it lists for each kind
// of type, in which order, and that it reads back; the bench's size probes read nothing else.

import Foundation
import Testing
@testable import ProtoGenKit
import ProtoSchema
import TestSupport

@Suite struct PlanDocumentTests {
    /// `p.Holder` has no fields and only nested types, so it is a namespace; `b.Tag` is generated
    /// because `p.Item` uses it although its file is not a root; `class` takes a C rename.
    static let files = [
        "a.proto": """
            syntax = "proto3"; package p; import "sub/b.proto";
            message Holder { message Leaf { int32 n = 1; } enum Mode { MODE_UNSPECIFIED = 0; MODE_ON = 1; } }
            message Item { int32 count = 1; string class = 2; repeated b.Tag tags = 3; Holder.Leaf leaf = 4; }
            """,
        "sub/b.proto": "syntax = \"proto3\"; package b; message Tag { string name = 1; }",
    ]
    static let maxSize = NanopbOptionSetting(file: "a.proto", element: "p.Item.class", kind: .field,
                                             option: "max_size", value: "16", source: "a.options")
    static let ignoreLeaf = NanopbOptionSetting(file: "a.proto", element: "p.Item.leaf", kind: .field,
                                                option: "type", value: "FT_IGNORE", source: "a.options")

    static func document(_ inputs: PlanInputs = PlanInputs(roots: ["a.proto"], nanopbOptions: [maxSize])) throws -> PlanDocument {
        try PlanDocument(FacadePlan(schema: compileSchema(files), inputs: inputs))
    }

    @Test func everyEmittedTypeIsListedWithItsNameOnEachSideMessagesFirstInSchemaOrder() throws {
        let document = try Self.document()
        let rows = document.types.map { [$0.proto, $0.swift, $0.c, $0.file, $0.kind.rawValue] }
        #expect(rows == [
            ["b.Tag", "B_Tag", "b_Tag", "sub/b.proto", "message"],
            ["p.Holder", "P_Holder", "p_Holder", "a.proto", "namespace"],
            ["p.Holder.Leaf", "P_Holder_Leaf", "p_Holder_Leaf", "a.proto", "message"],
            ["p.Item", "P_Item", "p_Item", "a.proto", "message"],
            ["p.Holder.Mode", "P_Holder_Mode", "p_Holder_Mode", "a.proto", "enum"],
        ])
        #expect(document.messages.map(\.proto) == ["b.Tag", "p.Holder.Leaf", "p.Item"])
    }

    @Test func aMessageListsTheAccessorsTheEmitterWritesAndOtherTypesListNone() throws {
        let types = Dictionary(uniqueKeysWithValues: try Self.document().types.map { ($0.proto, $0) })
        let item = try #require(types["p.Item"])
        #expect(item.getters == ["count", "`class`", "tags", "leaf", "hasLeaf"])
        #expect(item.setters == ["count", "`class`", "tags", "leaf"])
        #expect(item.mutators == ["clearLeaf"])
        #expect(types["b.Tag"]?.getters == ["name"] && types["b.Tag"]?.mutators == [])
        for name in ["p.Holder", "p.Holder.Mode"] {
            let entry = try #require(types[name])
            #expect(entry.getters == nil && entry.setters == nil && entry.mutators == nil, "\(name) has no accessors")
        }
    }

    @Test func filesRenamesAndSkippedOptionsAreThePlansOwn() throws {
        let document = try Self.document()
        #expect(document.roots == ["a.proto"])
        #expect(document.cFiles == ["sub/b.proto", "a.proto"], "dependency order: the import first")
        #expect(document.cIncludes == ["sub/b.proto", "a.proto"])
        #expect(document.cRenames == [PlanDocument.Rename(kind: "field", scope: "p.Item", proto: "class", c: "class_")])
        #expect(document.facadeFiles == ["sub_b.pb.swift", "a.pb.swift"], "one flat folder: the path joined with _")
        #expect(document.nanopbOptionsFile == ["* type:FT_POINTER"])
        #expect(document.optionsMode == "skip")
        #expect(document.honoured.isEmpty)
        #expect(document.skipped == [
            "a.proto: p.Item.class: max_size = 16 (from a.options): no effect: sizes static storage only; fields are FT_POINTER"])
        #expect(document.skippedExtensions.isEmpty)
    }

    @Test func anHonouredOptionIsListedAsHonouredAndItsFieldLosesItsAccessors() throws {
        let document = try Self.document(PlanInputs(roots: ["a.proto"], nanopbOptions: [Self.ignoreLeaf], optionsMode: .honour))
        #expect(document.optionsMode == "honour")
        #expect(document.honoured == ["a.proto: p.Item.leaf: type = FT_IGNORE (from a.options)"])
        #expect(document.skipped.isEmpty)
        let item = try #require(document.types.first { $0.proto == "p.Item" })
        #expect(item.getters == ["count", "`class`", "tags"])
    }

    @Test func theDocumentReadsBackAsWrittenWithSortedKeysAndPlainSlashes() throws {
        let document = try Self.document()
        let folder = try TemporaryFolder()
        let path = folder.path + "/plan.json"
        try document.json.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try PlanDocument.load(path) == document)
        #expect(document.json.hasPrefix("{\n  \"cFiles\" : [\n    \"sub/b.proto\","), "sorted keys, indented, slashes unescaped")
        #expect(try Self.document().json == document.json, "deterministic")
    }

    @Test func loadingAMissingOrForeignFileNamesTheFileAndWhy() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path + "/none.json", foreign = folder.path + "/foreign.json"
        try "[1, 2]".write(toFile: foreign, atomically: true, encoding: .utf8)
        #expect(throws: GeneratorError.io(path: missing, reason: "cannot read")) { try PlanDocument.load(missing) }
        #expect(throws: GeneratorError.io(path: missing, reason: "cannot read")) { try NanopbOptionSetting.load(missing) }
        for load in [{ _ = try PlanDocument.load(foreign) }, { _ = try NanopbOptionSetting.load(foreign) }] as [() throws -> Void] {
            do { try load(); Issue.record("a foreign file was read as a plan or options") } catch let GeneratorError.io(path, reason) {
                #expect(path == foreign)
                #expect(reason.hasPrefix("not a generation plan: ") || reason.hasPrefix("not a nanopb options report: "), "\(reason)")
            }
        }
    }
}
