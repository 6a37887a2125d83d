// What a generation run writes besides the targets: the descriptor set (`--descriptor-out`) and
// the plan (`--plan-out`), each into folders it creates, each rewritten only when it changes; the
// device's build the facades' limits came from (`deviceBuildOut`, for the device party of prove);
// and the C renames of every kind reaching nanopb's output.

import Foundation
import NanopbDeviceLayout
import ProtoGenKit
import ProtoSchema
import Testing
import TestSupport

@Suite struct GenerationSideOutputsTests {
    static func writeSchema(_ text: String, in folder: TemporaryFolder) throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/protos", withIntermediateDirectories: true)
        try text.write(toFile: folder.path + "/protos/x.proto", atomically: true, encoding: .utf8)
    }

    static func modified(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    @Test func theDescriptorSetAndPlanGoIntoNewFoldersAndAreRewrittenOnlyWhenTheyChange() throws {
        let folder = try TemporaryFolder("side-outputs")
        try Self.writeSchema("syntax = \"proto3\"; package s; message A { int32 v = 1; }", in: folder)
        let set = folder.path + "/out/sets/schema.pb", plan = folder.path + "/out/plans/plan.json"
        let arguments = ["--c-only", "--c-out", folder.path + "/SideC", "--descriptor-out", set, "--plan-out", plan]
        let first = try runGeneration(protoDirectory: folder.path + "/protos", arguments, hint: false)
        #expect(first.status == 0, "\(first.said)")
        #expect(try SchemaSet(contentsOf: set).message("s.A")?.fields.map(\.name) == ["v"])
        #expect(try PlanDocument.load(plan).messages.map(\.proto) == ["s.A"])

        let old = Date(timeIntervalSince1970: 946_684_800)
        for path in [set, plan] { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path) }
        #expect(try runGeneration(protoDirectory: folder.path + "/protos", arguments, hint: false).status == 0)
        #expect(try Self.modified(set) == old && Self.modified(plan) == old, "the same schema rewrites neither")

        try Self.writeSchema("syntax = \"proto3\"; package s; message A { int32 v = 1; } message B { bool on = 1; }", in: folder)
        #expect(try runGeneration(protoDirectory: folder.path + "/protos", arguments, hint: false).status == 0)
        #expect(try Self.modified(set) != old && Self.modified(plan) != old)
        #expect(try PlanDocument.load(plan).messages.map(\.proto) == ["s.A", "s.B"])
    }

    /// The options file is named after no `.proto` (the bundled schema's `rtm.options` shape), so
    /// nanopb finds it only because generation hands it over: the kept build must be that one.
    @Test func theDeviceBuildKeptIsTheOneTheLimitsCameFromWithATopLevelOptionsFile() throws {
        let folder = try TemporaryFolder("device-build-out")
        try Self.writeSchema("syntax = \"proto3\"; message A { string name = 1; }", in: folder)
        try "A.name max_size:8\n".write(toFile: folder.path + "/protos/limits.options", atomically: true, encoding: .utf8)
        var request = GenerationRequest(protoDirectory: folder.path + "/protos", cOut: folder.path + "/out/AC")
        request.swiftOut = folder.path + "/out/A"
        request.limitsFromOptions = true
        request.deviceBuildOut = folder.path + "/out/device"
        try FileManager.default.createDirectory(atPath: request.deviceBuildOut! + "/stale", withIntermediateDirectories: true)
        let result = try SchemaGeneration.run(request, tools: GenerationTools.inTree(repositoryRoot))

        let limit = try #require(result.deviceLayout?.messages.first?.fields.first)
        #expect(limit.name == "name" && limit.maxSize == 8)
        let kept = try DeviceLayout(contentsOf: folder.path + "/out/device/layout.json")
        #expect(kept.options && kept.messages.first?.fields.first?.maxSize == 8)
        let header = try String(contentsOfFile: folder.path + "/out/device/gen/x.pb.h", encoding: .utf8)
        #expect(header.contains("char name[8];"), "\(header)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/device/stale"), "the folder is replaced")

        request.limitsFromOptions = false
        request.deviceBuildOut = folder.path + "/out/device-unasked"
        _ = try SchemaGeneration.run(request, tools: GenerationTools.inTree(repositoryRoot))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/device-unasked"), "no device build without the limits")
    }

    @Test func aCKeywordTypeFieldAndOneofAreRenamedInNanopbsOutput() throws {
        let folder = try TemporaryFolder("c-renames")
        try Self.writeSchema("syntax = \"proto3\"; message int { int32 switch = 1; oneof case { int32 x = 2; bool y = 3; } }", in: folder)
        let run = try runGeneration(protoDirectory: folder.path + "/protos", ["--c-only", "--c-out", folder.path + "/KeyC"], hint: false)
        #expect(run.status == 0, "\(run.said)")
        let header = try String(contentsOfFile: folder.path + "/KeyC/include/x.pb.h", encoding: .utf8)
        for renamed in ["typedef struct _int_ {", "int32_t *switch_;", "pb_size_t which_case_;", "} case_;", "(case_,x,case_.x)"] {
            #expect(header.contains(renamed), "\(renamed) in\n\(header)")
        }
    }
}
