// What scripts/device-build.py reports of the device's layout for a schema with nested messages:
// every message nanopb generates, nested ones under their full proto name and C name, and per
// field what nanopb decided (allocation, rules, type, C type, sizes) with the options behind it.
// Expected values follow nanopb 0.4.7's rules for options-nesting: the file's max_size reaches every
// field (and is reported on each, whatever its type), a nearer pattern overrides it, int_size narrows
// the C type, proto3 singular messages and `optional` scalars get a has_ flag (OPTIONAL), and a
// oneof with no_unions becomes plain fields (SINGULAR) even when its `type` says FT_IGNORE.

import Foundation
import Testing
import TestSupport
@testable import ProtoGenKit

@Suite struct DeviceLayoutOfNestedSchemaTests {
    @Test func nestedMessagesAndEveryFieldAreInTheLayoutWithWhatNanopbMadeOfThem() throws {
        let tools = try GenerationTools.inTree(repositoryRoot)
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let (schema, set) = try compileTestSchema("options-nesting", into: scratch.path)
        let sources = try SchemaGeneration.optionSources(optionsFile: nil, protoDirectory: schema, protoPaths: [])
        try scratch.makeFolder("device")
        let layout = try #require(try SchemaGeneration.deviceLayoutOf(setPath: set, protoDirectory: schema, optionArguments: sources,
                                                                      into: scratch.path + "/device", tools: tools))
        #expect(layout.options)
        #expect(layout.messages.map { "\($0.fullName) \($0.cName) dropped \($0.dropped.count)" }
                == ["nest.Outer nest_Outer dropped 0", "nest.Outer.Inner nest_Outer_Inner dropped 0"])
        let fields = layout.messages.map { message in
            message.fields.map { f in
                let options = f.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                return "\(f.name) \(f.number) \(f.allocation) \(f.rules) \(f.type) \(f.cType) size \(f.maxSize.map(String.init) ?? "-") [\(options)]"
            }
        }
        #expect(fields == [
            ["inner 1 STATIC OPTIONAL MESSAGE nest_Outer_Inner size 30 [max_size=30,proto3=true]",
             "count 2 STATIC OPTIONAL UINT32 uint16_t size 30 [int_size=IS_16,max_size=30,proto3=true]",
             "number 3 STATIC SINGULAR UINT32 uint32_t size 30 [max_size=30,proto3=true]",
             "word 4 STATIC SINGULAR STRING char size 30 [max_size=30,proto3=true]",
             "flag 5 STATIC SINGULAR BOOL bool size 30 [max_size=30,proto3=true]"],
            ["tag 1 STATIC SINGULAR STRING char size 8 [max_size=8,proto3=true]",
             "level 2 STATIC SINGULAR UENUM nest_Outer_Inner_Level size 30 [max_size=30,proto3=true]"],
        ])
    }

    @Test func aSchemaFileInASubfolderGetsItsDeviceCInTheSameSubfolder() throws {
        let tools = try GenerationTools.inTree(repositoryRoot)
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        try scratch.makeFolder("device")
        let (schema, set) = try compileWrittenSchema([
            "deep/inner/odd.proto": "syntax = \"proto3\";\npackage deep;\nmessage Odd { bytes b = 1; }\n",
            "deep/inner/odd.options": "deep.Odd.b max_size:5\n",
        ], into: scratch.path)
        let sources = try SchemaGeneration.optionSources(optionsFile: nil, protoDirectory: schema, protoPaths: [])
        let layout = try #require(try SchemaGeneration.deviceLayoutOf(setPath: set, protoDirectory: schema, optionArguments: sources,
                                                                      into: scratch.path + "/device", tools: tools))
        #expect(layout.messages.map(\.cName) == ["deep_Odd"])
        for name in ["deep/inner/odd.pb.h", "deep/inner/odd.pb.c"] {
            #expect(FileManager.default.fileExists(atPath: scratch.path + "/device/gen/" + name), "\(name)")
        }
    }

    @Test func aSchemaWithImportsButNoNanopbOptionsHasNoDeviceLayout() throws {
        // An import of another schema file is not an import of nanopb.proto: nothing sets an option,
        // so there is no device to build and no layout.
        let tools = try GenerationTools.inTree(repositoryRoot)
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        try scratch.makeFolder("device")
        let (schema, set) = try compileWrittenSchema([
            "a.proto": "syntax = \"proto3\";\npackage plain;\nmessage A { int32 x = 1; }\n",
            "b.proto": "syntax = \"proto3\";\npackage plain;\nimport \"a.proto\";\nmessage B { A a = 1; }\n",
        ], into: scratch.path)
        let sources = try SchemaGeneration.optionSources(optionsFile: nil, protoDirectory: schema, protoPaths: [])
        #expect(try SchemaGeneration.deviceLayoutOf(setPath: set, protoDirectory: schema, optionArguments: sources,
                                                    into: scratch.path + "/device", tools: tools) == nil)
        #expect(try String(contentsOfFile: scratch.path + "/device/layout.json", encoding: .utf8) == "{\"messages\": [], \"options\": false}\n")
    }
}
