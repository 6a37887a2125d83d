import Foundation
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing
import TestSupport

/// Locations of the test schemas, and their compiled `SchemaSet`s (protoc runs once per set).
enum Fixtures {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// Schemas written for these tests: handcrafted-bytes schema and a foreign schema.
    static let wireDirectory = testsDirectory.appendingPathComponent("Fixtures/wire").path
    static let foreignDirectory = testsDirectory.appendingPathComponent("Fixtures/foreign").path
    /// Google's well-known types, installed with protoc (`libprotobuf-dev`): a second foreign schema.
    static let wellKnownDirectory = "/usr/include"
    static let wellKnownFiles = [
        "any", "api", "descriptor", "duration", "empty", "field_mask", "source_context", "struct",
        "timestamp", "type", "wrappers",
    ].map { "google/protobuf/\($0).proto" }

    private static let wireTask = Task { try await compile(OracleCheckConfiguration(protoDirectory: wireDirectory)) }
    private static let foreignTask = Task { try await compile(OracleCheckConfiguration(protoDirectory: foreignDirectory)) }

    /// The schema of the handcrafted-bytes tests (`wire3.Scalars`, `wire2.Legacy`).
    static func wire() async throws -> SchemaSet { try await wireTask.value }
    /// The foreign fixture schema (`foreign.three.*`, `foreign.two.*`).
    static func foreign() async throws -> SchemaSet { try await foreignTask.value }

    static func compile(_ configuration: OracleCheckConfiguration) async throws -> SchemaSet {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try await OracleCheck.compile(configuration, scratch: scratch).schemas
    }
}

/// Bytes from hex digits; spaces are ignored (`"08 96 01"`).
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd number of hex digits in \(hex)")
    return stride(from: 0, to: digits.count, by: 2).map { index in
        guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { preconditionFailure("bad hex \(hex)") }
        return byte
    }
}

/// Lower-case hex of bytes, two digits per byte, separated by spaces (matches `bytes(_:)` input).
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        .joined(separator: " ")
}

/// An empty message of `fullName`; records an issue (and returns a placeholder) when undeclared.
func empty(_ fullName: String, _ schemas: SchemaSet) throws -> DynamicMessage {
    try #require(DynamicMessage(fullName, in: schemas), "\(fullName) is not declared")
}

/// Decodes hex as `fullName`.
func decode(
    _ hex: String, as fullName: String, _ schemas: SchemaSet, options: BinaryDecodingOptions = .init()
) throws -> DynamicMessage {
    let schema = try #require(schemas.message(fullName))
    return try DynamicMessage(serializedBytes: bytes(hex), schema: schema, in: schemas, options: options)
}

/// The error decoding hex as `fullName` throws; nil (and an issue) when it decodes.
func decodeError(
    _ hex: String, as fullName: String, _ schemas: SchemaSet, options: BinaryDecodingOptions = .init()
) throws -> OracleDecodeError? {
    let schema = try #require(schemas.message(fullName))
    do {
        let message = try DynamicMessage(serializedBytes: bytes(hex), schema: schema, in: schemas, options: options)
        Issue.record("expected a decode error, got \(message)")
        return nil
    } catch {
        return error
    }
}
