import Foundation
@testable import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing
import TestSupport

/// The pieces of a batch: the wrapper text and encoding the oracle expects from protoc, reading
/// protoc's printed wrapper back into items, grouping cases by type, and the wrapper file itself
/// as protoc loads it.
@Suite struct ProtocBatchTests {
    @Test func theWrapperEncodingFramesEachItemAsFieldOneWithItsLength() {
        let long = [UInt8](repeating: 7, count: 200)
        #expect(DescriptorSetWriter.wrapperEncoding(items: [[], [1, 2], long]) == [0x0A, 0x00, 0x0A, 0x02, 1, 2, 0x0A, 0xC8, 0x01] + long)
        #expect(ProtocBatches.text(["a: 1", ""]) == "item {\na: 1\n}\nitem {\n\n}\n")
    }

    @Test func printedItemsAreReadBackUnindentedAndAnythingElseIsRefused() {
        let printed = "item {\n  a: 1\n  b {\n    c: \"x\"\n  }\n}\nitem {\n}\n"
        #expect(ProtocBatches.items(ofDecodedText: printed) == ["a: 1\nb {\n  c: \"x\"\n}", ""])
        #expect(ProtocBatches.items(ofDecodedText: "") == [])
        for refused in ["item {\n  a: 1\n", "a: 1\n", "item {\na: 1\n}\n", "item {\n  a: 1\n}\n}\n", "item {\n\n}\n"] {
            #expect(ProtocBatches.items(ofDecodedText: refused) == nil, "\(refused)")
        }
    }

    @Test func casesAreGroupedByTypeInOrderOfFirstAppearanceAndCutAtTheBatchSize() throws {
        let schemas = try InlineSchema.compile(["g.proto": """
            syntax = "proto3";
            package g;
            message A { int32 x = 1; }
            message B { int32 y = 1; }
            """])
        let a = try #require(DynamicMessage("g.A", in: schemas)), b = try #require(DynamicMessage("g.B", in: schemas))
        let cases = [b, a, b, b, a, b].enumerated().map { CheckCase(name: "\($0.offset)", message: $0.element) }
        #expect(ProtocBatches.groups(of: cases, size: 2) == [[0, 2], [3, 5], [1, 4]])
        #expect(ProtocBatches.groups(of: cases, size: 64) == [[0, 2, 3, 5], [1, 4]])
        #expect(ProtocBatches.groups(of: cases, size: 0) == [[0], [2], [3], [5], [1], [4]])
    }

    /// The wrapper file protoc is handed: it loads, its wrapper takes items of the type it names
    /// from a file of another package, and the original files are still there.
    @Test func protocEncodesItemsThroughTheWrapperOfTheirType() async throws {
        let folder = try TemporaryFolder("batch")
        let dir = URL(fileURLWithPath: folder.path)
        let compiled = try await OracleCheck.compile(OracleCheckConfiguration(protoDirectory: Fixtures.wireDirectory), scratch: dir)
        var message = try #require(DynamicMessage("wire3.Scalars", in: compiled.schemas))
        message.set(number: 1, .int32(150))
        let batches = try ProtocBatches.write(for: [CheckCase(name: "one", message: message)], descriptorSet: compiled.descriptorSetPath,
                                              to: dir.appendingPathComponent("batches.pb").path)
        #expect(batches.wrappers == ["wire3.Scalars": "wireproof_oracle_batch.W0"])
        let protoc = try Protoc(path: nil, scratch: dir)
        let encoded = try await protoc.run(["--descriptor_set_in=\(batches.descriptorSet)", "--encode=wireproof_oracle_batch.W0"],
                                           input: Array("item { i32: 150 } item { }".utf8))
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout == DescriptorSetWriter.wrapperEncoding(items: [message.serializedBytes(), []]))
        let alone = try await protoc.run(["--descriptor_set_in=\(batches.descriptorSet)", "--encode=wire3.Scalars"], input: Array("i32: 150".utf8))
        #expect(alone.stdout == message.serializedBytes())
    }

    /// protoc prints a batch with one item's field missing (cases alone it prints right): that
    /// item alone is checked again, by itself, and agrees; the batch confirms the others.
    @Test func anItemTheBatchReadsDifferentlyIsCheckedAloneAndTheOthersAreNot() async throws {
        let folder = try TemporaryFolder("batch")
        let dir = URL(fileURLWithPath: folder.path)
        let compiled = try await OracleCheck.compile(OracleCheckConfiguration(protoDirectory: Fixtures.wireDirectory), scratch: dir)
        let cases = try (1...3).map { value in
            var message = try #require(DynamicMessage("wire3.Scalars", in: compiled.schemas))
            message.set(number: 1, .int32(Int32(value)))
            return CheckCase(name: "case\(value)", message: message)
        }
        let fake = try DisagreeingProtocTests.fakeProtoc("batch-drops-one-field", in: dir)
        var checker = CrossChecker(protoc: try Protoc(path: fake, scratch: dir), descriptorSet: compiled.descriptorSetPath,
                                   schemas: compiled.schemas)
        let batches = try ProtocBatches.write(for: cases, descriptorSet: compiled.descriptorSetPath,
                                              to: dir.appendingPathComponent("batches.pb").path)
        checker.batches = batches
        let outcomes = try await checker.check(group: cases)
        #expect(outcomes.count == 3 && outcomes.allSatisfy { $0 == nil }, "\(outcomes.compactMap { $0?.problem })")
        let runs = try String(contentsOfFile: fake + ".runs", encoding: .utf8).split(separator: "\n")
        #expect(runs == ["encode", "decode", "encode", "decode"], "the batch, then case1 alone")
    }
}
