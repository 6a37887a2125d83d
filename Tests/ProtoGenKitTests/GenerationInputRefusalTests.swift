// What a generation run refuses before writing anything, each with the path it names: a schema
// folder that is missing or holds no .proto, a given descriptor set that is missing or malformed;
// and the bytewise order the schema's files are handed to protoc in.

import Foundation
import Testing
@testable import ProtoGenKit
import TestSupport

@Suite struct GenerationInputRefusalTests {
    static func refusal(_ request: GenerationRequest) throws -> GeneratorError? {
        do { _ = try SchemaGeneration.run(request, tools: try GenerationTools.inTree(repositoryRoot)); return nil } catch { return error }
    }

    @Test func aMissingOrEmptySchemaFolderIsRefusedByPath() throws {
        let folder = try TemporaryFolder("refusal-folder")
        let missing = folder.path + "/missing"
        #expect(try Self.refusal(GenerationRequest(protoDirectory: missing, cOut: folder.path + "/C"))
                == .io(path: missing, reason: "schema folder does not exist"))
        #expect(try Self.refusal(GenerationRequest(protoDirectory: folder.path, cOut: folder.path + "/C"))
                == .io(path: folder.path, reason: "no .proto files"))
    }

    @Test func aGivenDescriptorSetThatIsMissingOrMalformedIsRefused() throws {
        let folder = try TemporaryFolder("refusal-set")
        try "syntax = \"proto3\";\nmessage M {}\n".write(toFile: folder.path + "/m.proto", atomically: true, encoding: .utf8)
        var request = GenerationRequest(protoDirectory: folder.path, cOut: folder.path + "/C")
        request.descriptorSet = folder.path + "/absent.pb"
        #expect(try Self.refusal(request) == .io(path: folder.path + "/absent.pb", reason: "cannot read the descriptor set"))
        #expect(FileManager.default.createFile(atPath: folder.path + "/bad.pb", contents: Data([0x00, 0x01])))
        request.descriptorSet = folder.path + "/bad.pb"
        #expect(try Self.refusal(request) == .schema(.malformed(reason: "bad field number", offset: 0)))
    }

    @Test func theSchemasFilesAreListedInBytewiseOrder() throws {
        let folder = try TemporaryFolder("proto-order")
        try FileManager.default.createDirectory(atPath: folder.path + "/sub", withIntermediateDirectories: true)
        for name in ["a.proto", "B.proto", "sub/b.proto", "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: folder.path + "/" + name, contents: Data()))
        }
        #expect(SchemaGeneration.protoFiles(under: folder.path) == ["B.proto", "a.proto", "sub/b.proto"])
    }
}
