// Shared pieces of the exemplar conformance suite: the schema loaded at test time (protoc on the
// schema folder), the oracle's exemplars by name, and the table of known, deliberate differences
// between nanopb (the facades) and the oracle's canonical encoding, each with its reason.

import Foundation
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

extension GeneratedExemplar: CustomTestStringConvertible {
    /// The oracle's exemplar name, so a failing case names the message and the variant.
    var testDescription: String { name }
}

/// The schema the generated exemplars came from, compiled by protoc when first needed, and the
/// oracle's exemplars of it by name.
enum BundledSchema {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The schema folder the generator recorded (`--proto-dir-hint`), relative to the package.
    static let protoDirectory = repositoryRoot.appendingPathComponent(generatedExemplarProtoDirectory ?? "Protos").path

    struct Loaded: Sendable {
        let schemas: SchemaSet
        let exemplars: [String: Exemplar]
    }

    private static let task = Task { () throws -> Loaded in
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let schemas = try await OracleCheck.compile(OracleCheckConfiguration(protoDirectory: protoDirectory), scratch: scratch).schemas
        var byName: [String: Exemplar] = [:]
        for exemplar in Exemplars(schemas: schemas).all() { byName[exemplar.name] = exemplar }
        return Loaded(schemas: schemas, exemplars: byName)
    }

    static func loaded() async throws -> Loaded { try await task.value }

    /// The oracle's exemplar of that name (records a failure when the oracle has none: the
    /// generated files are stale, run `make proto`).
    static func exemplar(named name: String) async throws -> Exemplar {
        try #require(try await loaded().exemplars[name], "the oracle has no exemplar \(name); run make proto")
    }

    /// The schema of a message type.
    static func message(_ fullName: String) async throws -> MessageSchema {
        try #require(try await loaded().schemas.message(fullName), "\(fullName) is not declared")
    }
}

// MARK: Known differences

/// A deliberate difference between what the facades (nanopb) write and the oracle's canonical
/// encoding. Each is a rule over the schema, not a list of exemplars, so it holds for any schema;
/// the suite counts the exemplars each rule covers and fails when a rule covers none (a stale
/// entry) or when a difference is not explained by a rule.
struct KnownDifference: Sendable, Hashable {
    let id: String
    /// Why nanopb differs, and why it is not a facade bug.
    let reason: String

    /// nanopb's encoder writes every repeated number, bool and enum packed: `encode_array` packs
    /// whenever the type is packable, ignoring `[packed = false]` and proto2's unpacked default.
    /// Decoders must accept both forms, so the message is the same; the bytes differ. Compared
    /// through `BinaryEncodingOptions.nanopb` (`packing: .allPackable`).
    static let packsEveryRepeatedNumber = KnownDifference(
        id: "packs-every-repeated-number",
        reason: "nanopb writes every packable repeated field packed, even [packed = false] and proto2 unpacked fields")

    static let all: [KnownDifference] = [packsEveryRepeatedNumber]

    /// The rules that apply to an exemplar: those whose fields it sets (root and nested).
    static func affecting(_ message: DynamicMessage) -> Set<KnownDifference> {
        var found: Set<KnownDifference> = []
        visit(message) { field, content in
            if case .repeated = content, field.type.isPackable, !field.isPacked { found.insert(packsEveryRepeatedNumber) }
        }
        return found
    }

    /// Calls `body` for every present field of `message` and of every submessage in it.
    static func visit(_ message: DynamicMessage, _ body: (FieldSchema, FieldContent) -> Void) {
        for number in message.presentFieldNumbers {
            guard let field = message.field(number: number), let content = message.content(number: number) else { continue }
            body(field, content)
            switch content {
            case .single(let value): if let inner = value.messageValue { visit(inner, body) }
            case .repeated(let values): for value in values { if let inner = value.messageValue { visit(inner, body) } }
            case .map(let map): for (_, value) in map.entries { if let inner = value.messageValue { visit(inner, body) } }
            }
        }
    }
}

/// Hex of bytes for failure messages, cut to a readable length.
func hexPreview(_ bytes: [UInt8], limit: Int = 96) -> String {
    let shown = bytes.prefix(limit).map { String(format: "%02x", $0) }.joined(separator: " ")
    return bytes.count > limit ? "\(shown) … (\(bytes.count) bytes)" : shown
}

/// Index of the first differing byte (or the shorter length).
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a.indices, zip(a, b)).first { $0.1.0 != $0.1.1 }?.0 ?? min(a.count, b.count)
}
