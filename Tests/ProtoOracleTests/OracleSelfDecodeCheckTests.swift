import Foundation
@testable import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

/// The oracle-check's third check: protoc agreeing with the oracle is not enough, the oracle must
/// also read its own bytes back to the message. A correct oracle never trips it, so these tests
/// plant a faulty decoder in the checker and expect the case reported with the right reason.
@Suite struct OracleSelfDecodeCheckTests {
    struct PlantedDecodeFailure: Error {}

    /// Checks one `wire3.Scalars` message against the real protoc, reading the oracle's bytes back
    /// with `decode`.
    static func check(
        decodingWith decode: @escaping @Sendable ([UInt8], MessageSchema, SchemaSet) throws -> DynamicMessage
    ) async throws -> CheckFailure? {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-selfcheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let compiled = try await OracleCheck.compile(OracleCheckConfiguration(protoDirectory: Fixtures.wireDirectory), scratch: scratch)
        var checker = CrossChecker(protoc: try Protoc(path: nil, scratch: scratch), descriptorSet: compiled.descriptorSetPath,
                                   schemas: compiled.schemas)
        checker.decodeOwnBytes = decode
        var message = try empty("wire3.Scalars", compiled.schemas)
        message.set(number: 1, .int32(150))
        message.set(number: 6, .string(Array("read back".utf8)))
        return try await checker.check(CheckCase(name: "planted", message: message))
    }

    @Test func theOraclesOwnDecoderPassesTheCheck() async throws {
        let failure = try await Self.check { try DynamicMessage(serializedBytes: $0, schema: $1, in: $2) }
        #expect(failure == nil, "\(failure.map(\.problem) ?? "")")
    }

    @Test func aDecoderThatLosesAFieldIsReported() async throws {
        let failure = try await Self.check { bytes, schema, schemas in
            var decoded = try DynamicMessage(serializedBytes: bytes, schema: schema, in: schemas)
            decoded.clear(number: 6)
            return decoded
        }
        #expect(failure?.problem == "the oracle decodes its own bytes to a different message")
        #expect(failure?.caseName == "planted")
    }

    @Test func aDecoderThatRejectsTheBytesIsReported() async throws {
        let failure = try await Self.check { _, _, _ in throw PlantedDecodeFailure() }
        #expect(failure?.problem.hasPrefix("the oracle rejects its own bytes: PlantedDecodeFailure") == true,
                "\(failure.map(\.problem) ?? "no failure")")
    }
}
