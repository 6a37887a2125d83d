import Testing
import OracleCheck
import ProtoSchema

/// Pins what ProtoSchema reports for schemas compiled by the real protoc.
@Suite struct SchemaModelTests {
    static let proto3 = """
        syntax = "proto3";
        package a.b;
        import "google/protobuf/timestamp.proto";
        enum Level { option allow_alias = true; LEVEL_ZERO = 0; LOW = -2; ALSO_LOW = -2; HIGH = 7; }
        message Outer {
          message Middle {
            message Inner { enum Kind { KIND_UNSET = 0; KIND_A = 1; } Kind kind = 1; }
            Inner inner = 1;
          }
          int32 plain = 1;
          optional string maybe = 2;
          repeated sint64 packed_by_default = 3;
          repeated fixed32 not_packed = 4 [packed = false];
          map<string, Middle> by_name = 5;
          oneof choice { bytes blob = 6; Middle middle = 7; Level level = 8; }
          google.protobuf.Timestamp at = 536870911;
          repeated string names = 9;
          int64 snake_case_field = 10;
        }
        """

    @Test func proto3FieldsReportPresencePackingAndOneofs() throws {
        let set = try InlineSchema.compile(["a/b.proto": Self.proto3])
        let outer = try #require(set.message("a.b.Outer"))
        #expect(outer.syntax == .proto3)
        let plain = try #require(outer.field(named: "plain"))
        #expect(!plain.hasPresence && plain.type == .int32)
        let maybe = try #require(outer.field(named: "maybe"))
        #expect(maybe.hasPresence && maybe.isProto3Optional)
        #expect(try #require(outer.field(named: "packed_by_default")).isPacked)
        let notPacked = try #require(outer.field(named: "not_packed"))
        #expect(!notPacked.isPacked && notPacked.packedOption == false)
        let names = try #require(outer.field(named: "names"))
        #expect(!names.isPacked)
        // One real oneof and one synthetic oneof for `optional`.
        #expect(outer.oneofs.map(\.isSynthetic).sorted { !$0 && $1 } == [false, true])
        #expect(outer.realOneofs.map(\.name) == ["choice"])
        #expect(outer.realOneofs[0].fieldNumbers == [6, 7, 8])
        #expect(try #require(outer.field(named: "blob")).hasPresence)
        let at = try #require(outer.field(number: 536_870_911))
        #expect(at.typeName == "google.protobuf.Timestamp" && at.hasPresence)
        #expect(try #require(outer.field(named: "snake_case_field")).jsonName == "snakeCaseField")
    }

    @Test func aOneofWithOneMemberIsRealUnlessProtocMadeItForOptional() throws {
        // protoc wraps a proto3 `optional` field in a one-member oneof; a one-member oneof the user
        // wrote is a real oneof all the same, in proto3 and in proto2.
        let set = try InlineSchema.compile([
            "one3.proto": "syntax = \"proto3\"; message M { oneof only { int32 a = 1; } optional int32 b = 2; }",
            "one2.proto": "syntax = \"proto2\"; message N { oneof only { int32 a = 1; } optional int32 b = 2; }",
        ])
        let m = try #require(set.message("M"))
        #expect(m.realOneofs.map(\.name) == ["only"] && m.realOneofs[0].fieldNumbers == [1])
        #expect(m.oneofs.filter(\.isSynthetic).map(\.fieldNumbers) == [[2]])
        let n = try #require(set.message("N"))
        #expect(n.realOneofs.map(\.name) == ["only"] && n.oneofs.count == 1)
    }

    @Test func mapFieldsPointAtSyntheticEntryMessages() throws {
        let set = try InlineSchema.compile(["a/b.proto": Self.proto3])
        let field = try #require(set.message("a.b.Outer")?.field(named: "by_name"))
        #expect(field.isRepeated && field.type == .message)
        let entryName = try #require(field.typeName)
        let entry = try #require(set.message(entryName))
        #expect(entry.isMapEntry)
        #expect(entry.mapKey?.type == .string)
        #expect(entry.mapValue?.typeName == "a.b.Outer.Middle")
    }

    @Test func nestedTypesAreFullyQualifiedThreeLevelsDeep() throws {
        let set = try InlineSchema.compile(["a/b.proto": Self.proto3])
        let inner = try #require(set.message("a.b.Outer.Middle.Inner"))
        #expect(inner.parent == "a.b.Outer.Middle")
        #expect(inner.nestedEnums == ["a.b.Outer.Middle.Inner.Kind"])
        #expect(set.enumType("a.b.Outer.Middle.Inner.Kind")?.isClosed == false)
        // A message precedes its nested types, and files list their top-level types.
        let names = set.messages.map(\.fullName)
        #expect(names.firstIndex(of: "a.b.Outer")! < names.firstIndex(of: "a.b.Outer.Middle.Inner")!)
        #expect(set.file("a/b.proto")?.messages == ["a.b.Outer"])
        #expect(set.file("a/b.proto")?.dependencies == ["google/protobuf/timestamp.proto"])
        #expect(set.message("google.protobuf.Timestamp") != nil)
    }

    @Test func enumAliasesAndNegativeValuesAreKept() throws {
        let set = try InlineSchema.compile(["a/b.proto": Self.proto3])
        let level = try #require(set.enumType("a.b.Level"))
        #expect(level.allowAlias)
        #expect(level.values.map(\.number) == [0, -2, -2, 7])
        #expect(level.name(for: -2) == "LOW")
    }

    @Test func proto2RecognisesRequiredDefaultsGroupsAndExtensions() throws {
        let text = """
            syntax = "proto2";
            package legacy;
            enum Mode { FAST = 1; SAFE = 2; }
            message Old {
              required int32 id = 1;
              optional string label = 2 [default = "none"];
              optional Mode mode = 3 [default = SAFE];
              repeated int32 plain = 4;
              repeated int32 packed = 5 [packed = true];
              optional group Legacy = 6 { optional int32 x = 7; }
              extensions 100 to 199;
            }
            extend Old { optional int32 extra = 100; }
            message Holder { extend Old { optional string nested_extra = 101; } }
            """
        let set = try InlineSchema.compile(["legacy.proto": text])
        let old = try #require(set.message("legacy.Old"))
        #expect(old.syntax == .proto2)
        #expect(old.field(named: "id")?.label == .required)
        #expect(old.field(named: "label")?.defaultValue == "none")
        #expect(old.field(named: "mode")?.defaultValue == "SAFE")
        #expect(old.field(named: "plain")?.isPacked == false)
        #expect(old.field(named: "packed")?.isPacked == true)
        #expect(old.field(number: 6)?.type == .group)
        #expect(old.extensionRanges == [100...199])
        #expect(set.extensions(of: "legacy.Old").map(\.name).sorted() == ["extra", "nested_extra"])
        #expect(set.enumType("legacy.Mode")?.isClosed == true)
        #expect(old.field(named: "label")?.hasPresence == true)
    }

    @Test func importsResolveAcrossFiles() throws {
        let set = try InlineSchema.compile([
            "x/common.proto": "syntax = \"proto3\"; package x; message Id { string v = 1; }",
            "x/user.proto": "syntax = \"proto3\"; package x; import \"x/common.proto\"; message User { Id id = 1; }",
        ], compile: ["x/user.proto"])
        #expect(set.files.map(\.name) == ["x/common.proto", "x/user.proto"])
        #expect(set.message("x.User")?.field(named: "id")?.typeName == "x.Id")
    }
}
