// The bundled schema as the oracle sees it, for every suite that needs it: Protos/ compiled by the
// real protoc once per test process (all test targets run in one process on Linux, so the suites
// share the one compile), with the oracle's exemplars of it by name.

import Foundation
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

public enum BundledSchema {
    /// The schema folder, `Protos/` of the repository.
    public static let protoDirectory = repositoryRoot + "/Protos"

    /// The compiled schema and its exemplars; built on first use, then shared.
    public struct Loaded: Sendable {
        public let schemas: SchemaSet
        public let exemplars: [String: Exemplar]
    }

    private static let task = Task { () throws -> Loaded in
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-bundled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let schemas = try await OracleCheck.compile(OracleCheckConfiguration(protoDirectory: protoDirectory), scratch: scratch).schemas
        var byName: [String: Exemplar] = [:]
        for exemplar in Exemplars(schemas: schemas).all() { byName[exemplar.name] = exemplar }
        return Loaded(schemas: schemas, exemplars: byName)
    }

    public static func loaded() async throws -> Loaded { try await task.value }

    public static func schemas() async throws -> SchemaSet { try await loaded().schemas }

    /// The oracle's exemplar of that name (records a failure when the oracle has none: the
    /// generated catalog is stale, run `make proto`).
    public static func exemplar(named name: String) async throws -> Exemplar {
        try #require(try await loaded().exemplars[name], "the oracle has no exemplar \(name); run make proto")
    }

    /// The schema of a message type.
    public static func message(_ fullName: String) async throws -> MessageSchema {
        try #require(try await loaded().schemas.message(fullName), "\(fullName) is not declared")
    }
}
