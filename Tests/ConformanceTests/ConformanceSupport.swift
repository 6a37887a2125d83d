// Shared pieces of the exemplar conformance suite: the bundled schema loaded at test time (protoc on
// the schema folder the catalog recorded) and the oracle's exemplars by name. The checks themselves
// live in FacadeProof, shared with `wireproof prove` and the fuzz targets.

import BundledProtoCatalog
import FacadeProof
import Foundation
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

extension FacadeExemplar: CustomTestStringConvertible {
    /// The oracle's exemplar name, so a failing case names the message and the variant.
    public var testDescription: String { name }
}

/// The bundled schema's catalog entries, as test arguments.
let catalogExemplars = facadeCatalog.exemplars

/// The schema the catalog came from, compiled by protoc when first needed, and the oracle's
/// exemplars of it by name.
enum BundledSchema {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The schema folder the generator recorded (`--proto-dir-hint`), relative to the package.
    static let protoDirectory = repositoryRoot.appendingPathComponent(facadeCatalog.protoDirectoryHint ?? "Protos").path

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
    /// generated catalog is stale, run `make proto`).
    static func exemplar(named name: String) async throws -> Exemplar {
        try #require(try await loaded().exemplars[name], "the oracle has no exemplar \(name); run make proto")
    }

    /// The schema of a message type.
    static func message(_ fullName: String) async throws -> MessageSchema {
        try #require(try await loaded().schemas.message(fullName), "\(fullName) is not declared")
    }
}
