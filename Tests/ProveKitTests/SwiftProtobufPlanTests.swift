import Foundation
import ProofSupport
import ProtoSchema
import Testing
@testable import ProveKit

/// Which files of a schema protoc-gen-swift generates for the SwiftProtobuf peer, and which message
/// types SwiftProtobuf's own library stands for (the well-known types).
@Suite struct SwiftProtobufPlanTests {
    /// A descriptor set protoc makes from `files` (name → text), imports included.
    private func schema(_ files: [String: String]) throws -> SchemaSet {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftprotobuf-plan-\(getpid())-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, text) in files {
            try FileManager.default.createDirectory(atPath: (folder + "/" + name as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        let protoc = try #require(ChildProcess.executableOnPath("protoc"))
        let result = try ChildProcess.run(protoc, ["-I.", "-I/usr/include", "--include_imports", "--descriptor_set_out=set.pb"] + files.keys.sorted(),
                                          in: folder)
        #expect(result.status == 0, "\(result.stderrText)")
        return try SchemaSet(contentsOf: folder + "/set.pb")
    }

    private let uses = """
        syntax = "proto3";
        package app;
        import "google/protobuf/struct.proto";
        import "google/protobuf/timestamp.proto";
        import "google/protobuf/descriptor.proto";
        import "app/local.proto";
        message Uses {
          google.protobuf.Struct s = 1;
          google.protobuf.Timestamp t = 2;
          google.protobuf.FileDescriptorProto d = 3;
          Local l = 4;
        }
        """
    private let local = """
        syntax = "proto3";
        package app;
        message Local { message Inner { int32 x = 1; } map<string, Inner> m = 1; }
        """

    @Test func ownFilesAndDescriptorProtoAreGeneratedAndWellKnownTypesAreNot() throws {
        let plan = SwiftProtobufPlan(try schema(["app/uses.proto": uses, "app/local.proto": local]))
        #expect(Set(plan.generate) == ["app/uses.proto", "app/local.proto", "google/protobuf/descriptor.proto"])
        #expect(!plan.generate.contains { SwiftProtobufPlan.shippedFiles.contains($0) })
    }

    @Test func eachOfTheTenWellKnownFilesTheLibraryShipsIsTakenFromIt() throws {
        let names = ["any", "api", "duration", "empty", "field_mask", "source_context", "struct", "timestamp", "type", "wrappers"]
        let imports = names.map { "import \"google/protobuf/\($0).proto\";\n" }.joined()
        let plan = SwiftProtobufPlan(try schema(["app/all.proto": "syntax = \"proto3\";\npackage app;\n" + imports + "message All { int32 x = 1; }\n"]))
        #expect(plan.generate == ["app/all.proto"])
        for type in ["Any", "Api", "Duration", "Empty", "FieldMask", "SourceContext", "Struct", "Timestamp", "Type", "Int32Value"] {
            #expect(plan.shippedMessageTypes.contains("Google_Protobuf_" + type), "\(type)")
        }
    }

    @Test func onlyTheFilesWhoseTypesAreJudgedAreGenerated() throws {
        // Files the facades do not judge (descriptor.proto imported for an extendee, nanopb.proto
        // for options) get no code; a judged one, descriptor.proto included, does.
        let set = try schema(["app/uses.proto": uses, "app/local.proto": local])
        #expect(SwiftProtobufPlan(set, judged: ["app/local.proto"]).generate == ["app/local.proto"])
        #expect(Set(SwiftProtobufPlan(set, judged: ["app/local.proto", "google/protobuf/descriptor.proto"]).generate)
                == ["app/local.proto", "google/protobuf/descriptor.proto"])
        #expect(SwiftProtobufPlan(set, judged: ["google/protobuf/struct.proto"]).generate.isEmpty, "a shipped file is never generated")
        #expect(SwiftProtobufPlan(set, judged: []).shippedMessageTypes == SwiftProtobufPlan(set).shippedMessageTypes)
    }

    @Test func shippedFilesNameTheLibrarysTypesNestedOnesDottedWithoutMapEntries() throws {
        let plan = SwiftProtobufPlan(try schema(["app/uses.proto": uses, "app/local.proto": local]))
        #expect(plan.shippedMessageTypes.sorted()
            == ["Google_Protobuf_ListValue", "Google_Protobuf_Struct", "Google_Protobuf_Timestamp", "Google_Protobuf_Value"])
    }

    @Test func aNestedMessageOfAShippedFileIsNamedInsideItsParent() throws {
        // type.proto's messages are flat; the rule is the same for nesting, checked on a stand-in file
        // of a shipped name (its content is ours).
        let nested = """
            syntax = "proto3";
            package google.protobuf;
            message Empty { message Inner { message Deeper {} } map<string, Inner> m = 1; }
            """
        let plan = SwiftProtobufPlan(try schema(["google/protobuf/empty.proto": nested]))
        #expect(plan.generate.isEmpty)
        #expect(plan.shippedMessageTypes == ["Google_Protobuf_Empty", "Google_Protobuf_Empty.Inner", "Google_Protobuf_Empty.Inner.Deeper"])
    }
}
