// The descriptor sets handed to nanopb's generator: what the writer changes (renames, extensions,
// custom option values, dependencies without C) and that it changes nothing else.

import Foundation
import ProofSupport
@testable import ProtoSchema
import Testing
import TestSupport

@Suite struct DescriptorSetWriterTests {
    /// protoc's `--include_imports` descriptor set of `files` (nanopb.proto on the import path).
    static func compiled(_ files: [String: String]) throws -> [UInt8] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-writer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let root = repositoryRoot
        let result = try ChildProcess.run("/usr/bin/protoc", ["-I.", "-I/usr/include", "-I\(root)/.deps/nanopb/generator/proto",
                                                              "--include_imports", "--descriptor_set_out=set.pb"] + files.keys.sorted(),
                                          in: dir.path)
        try #require(result.status == 0, "\(result.stderrText)")
        return [UInt8](try Data(contentsOf: dir.appendingPathComponent("set.pb")))
    }

    /// Every field number at every depth of `bytes` below a length-delimited path, as "1/4/2/8:1010".
    static func paths(_ bytes: ArraySlice<UInt8>, prefix: String = "", depth: Int = 0) -> Set<String> {
        var found: Set<String> = []
        guard depth < 8, let fields = try? RawWireField.parse(bytes) else { return found }
        for field in fields {
            let path = prefix + "\(field.number)"
            found.insert(path)
            if field.wireType == 2 { found.formUnion(paths(field.value, prefix: path + "/", depth: depth + 1)) }
        }
        return found
    }

    static let annotated = """
        syntax = "proto2";
        import "nanopb.proto";
        import "google/protobuf/descriptor.proto";
        package a;
        extend google.protobuf.FieldOptions { optional int32 mine = 50001; }
        message M {
          option (nanopb_msgopt).msgid = 7;
          optional int32 int = 1 [(nanopb).int_size = IS_8, (mine) = 3, deprecated = true];
          optional M child = 2;
          extensions 100 to 200;
          extend M { optional int32 inner_ext = 150; }
          enum E { option (nanopb_enumopt).long_names = false; X = 0; Y = 1 [deprecated = true]; }
          optional E e = 3;
        }
        extend M { optional string outer_ext = 101; }
        """

    @Test func customOptionValuesAndExtensionsAreDroppedAndStandardOptionsKept() throws {
        let set = try Self.compiled(["a.proto": Self.annotated])
        let writer = try DescriptorSetWriter(descriptorSet: set, renames: [])
        let written = try writer.set(for: "a.proto", withC: ["a.proto"])
        let paths = Self.paths(written[...])
        // set.file(1) / file.message_type(4) / message.field(2) / field.options(8) / deprecated(3)
        #expect(paths.contains("1/4/2/8/3"), "a standard option survives")
        #expect(!paths.contains { $0.hasPrefix("1/4/2/8/1010") || $0.hasPrefix("1/4/2/8/50001") }, "field custom options: \(paths.sorted())")
        #expect(!paths.contains { $0.hasPrefix("1/4/7/1010") }, "message custom option (nanopb_msgopt)")
        #expect(!paths.contains { $0.hasPrefix("1/4/4/3/1010") }, "nested enum custom option (nanopb_enumopt)")
        #expect(!paths.contains { $0.hasPrefix("1/4/6") || $0.hasPrefix("1/7") }, "extension declarations")
        #expect(paths.contains("1/4/5"), "extension ranges are kept")
        // Dependencies without C are gone: nanopb.proto and descriptor.proto get no C here.
        let schema = try SchemaSet(descriptorSet: written)
        #expect(schema.files.map(\.name) == ["a.proto"])
        #expect(schema.message("a.M")?.fields.map(\.name) == ["int", "child", "e"])
    }

    @Test func enumValuesKeepTheirNamesAndNumbersAndLoseOnlyTheirCustomOptions() throws {
        let files = ["v.proto": """
            syntax = "proto2";
            import "google/protobuf/descriptor.proto";
            package v;
            extend google.protobuf.EnumValueOptions { optional int32 tag = 50002; }
            enum Level { LOW = 0 [(tag) = 1, deprecated = true]; HIGH = 5; }
            message M { optional Level level = 1; }
            """]
        let writer = try DescriptorSetWriter(descriptorSet: try Self.compiled(files), renames: [])
        let written = try writer.set(for: "v.proto", withC: ["v.proto"])
        let level = try #require(try SchemaSet(descriptorSet: written).enumType("v.Level"))
        #expect(level.values.map(\.name) == ["LOW", "HIGH"])
        #expect(level.values.map(\.number) == [0, 5])
        // set.file(1) / file.enum_type(5) / enum.value(2) / value.options(3) / deprecated(1)
        let paths = Self.paths(written[...])
        #expect(paths.contains("1/5/2/3/1"), "a standard value option survives")
        #expect(!paths.contains("1/5/2/3/50002"), "a custom value option is dropped: \(paths.sorted())")
    }

    @Test func renamesReachTheNameAndEveryTypeNameThatPointsAtTheType() throws {
        let files = ["t.proto": "syntax = \"proto3\";\nmessage int { int32 switch = 1; oneof case { int32 x = 2; } }\nmessage U { int a = 1; repeated int b = 2; }\n"]
        let writer = try DescriptorSetWriter(descriptorSet: try Self.compiled(files), renames: [
            .init(kind: .type, scope: "int", protoName: "int", cName: "int_"),
            .init(kind: .field, scope: "int", protoName: "switch", cName: "switch_"),
            .init(kind: .oneof, scope: "int", protoName: "case", cName: "case_"),
        ])
        let schema = try SchemaSet(descriptorSet: try writer.set(for: "t.proto", withC: ["t.proto"]))
        let renamed = try #require(schema.message("int_"))
        #expect(renamed.fields.map(\.name) == ["switch_", "x"])
        #expect(renamed.oneofs.map(\.name) == ["case_"])
        #expect(schema.message("U")?.fields.map(\.typeName) == ["int_", "int_"])
    }

    @Test func aNestedMessageKeepsItsFieldsAndNestingUnderARenamedParentAndTakesItsOwnRenames() throws {
        let files = ["n.proto": "syntax = \"proto3\";\nmessage int { message Inner { int32 class = 1; message Deep { bool v = 1; } Deep d = 2; } Inner inner = 1; }\n"]
        let writer = try DescriptorSetWriter(descriptorSet: try Self.compiled(files), renames: [
            .init(kind: .type, scope: "int", protoName: "int", cName: "int_"),
            .init(kind: .field, scope: "int.Inner", protoName: "class", cName: "class_"),
        ])
        let schema = try SchemaSet(descriptorSet: try writer.set(for: "n.proto", withC: ["n.proto"]))
        #expect(schema.messages.map(\.fullName).sorted() == ["int_", "int_.Inner", "int_.Inner.Deep"])
        #expect(schema.message("int_")?.fields.map(\.typeName) == ["int_.Inner"])
        #expect(schema.message("int_.Inner")?.fields.map(\.name) == ["class_", "d"])
        #expect(schema.message("int_.Inner")?.fields.map(\.typeName) == [nil, "int_.Inner.Deep"])
        #expect(schema.message("int_.Inner.Deep")?.fields.map(\.name) == ["v"])
    }

    @Test func aSetHoldsTheFileLastAfterTheDependenciesWithCInTheSetsOrder() throws {
        let files = ["base.proto": "syntax = \"proto3\";\nmessage B { int32 v = 1; }\n",
                     "mid.proto": "syntax = \"proto3\";\nimport \"google/protobuf/empty.proto\";\nimport public \"base.proto\";\nmessage Mid { B b = 1; google.protobuf.Empty e = 2; }\n",
                     "top.proto": "syntax = \"proto3\";\nimport \"google/protobuf/empty.proto\";\nimport \"mid.proto\";\nmessage T { Mid m = 1; google.protobuf.Empty e = 2; }\n"]
        let writer = try DescriptorSetWriter(descriptorSet: try Self.compiled(files), renames: [])
        let withC: Set<String> = ["base.proto", "mid.proto", "top.proto", "google/protobuf/empty.proto"]
        let full = try SchemaSet(descriptorSet: try writer.set(for: "top.proto", withC: withC))
        // protoc's order (dependencies first), the file itself last.
        let protocOrder = try SchemaSet(descriptorSet: try Self.compiled(files)).files.map(\.name)
        #expect(full.files.map(\.name) == protocOrder.filter { $0 != "top.proto" } + ["top.proto"])
        #expect(full.files.last?.name == "top.proto")
        // Without C for empty.proto, mid.proto no longer depends on it, and its public import of
        // base.proto moves from index 1 to index 0.
        let pruned = try writer.set(for: "mid.proto", withC: ["base.proto", "mid.proto"])
        let mid = try #require(try RawWireField.parse(pruned[...]).last)
        let midFields = try RawWireField.parse(mid.value)
        #expect(midFields.filter { $0.number == 3 }.map(\.text) == ["base.proto"])
        #expect(midFields.filter { $0.number == 10 }.flatMap(\.varints) == [0], "public_dependency renumbered to base.proto's index")
        #expect(throws: SchemaError.self) { try writer.set(for: "absent.proto", withC: withC) }
    }
}
