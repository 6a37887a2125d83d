import Foundation
import OracleCheck
@testable import FacadeProof
import ProtoOracle
import ProtoSchema
import Testing

/// What `PeerProof.run` counts: every catalog exemplar once (same, explained or failed), then
/// `mutantsPerType` mutants of each exemplar that is neither a oneof variant (`#`) nor an edge
/// (`!`), the very mutants of the facade mutation step (same seed, same generator); rows per
/// `.proto` file in the schema set's order, not the alphabet's. The facades are stood in for by
/// the oracle, so each peer below controls exactly what differs.
@Suite struct PeerProofRunCountsTests {
    /// Two files, compiled z before a, so the schema order is not the alphabetical one. Zed's
    /// required field is written last, so a truncated mutant loses it; Ay's unpacked repeated
    /// field is one the facades write packed (row 6 of docs/deviations.md).
    static let schemas: SchemaSet = {
        do {
            return try InlineSchema.compile([
                "pp/z.proto": """
                syntax = "proto2";
                package pp;
                message Zed { optional string s = 2; oneof pick { int32 a = 3; int32 b = 4; } required int32 n = 9; }
                """,
                "pp/a.proto": """
                syntax = "proto2";
                package pp;
                message Ay { optional int32 v = 1; repeated int32 nums = 2; }
                """,
            ], compile: ["pp/z.proto", "pp/a.proto"])
        } catch {
            fatalError("inline schema: \(error)")
        }
    }()
    static let typeNames = ["pp.Zed", "pp.Ay"]

    static func oracleRoundTrip(_ type: String, _ bytes: [UInt8]) throws -> [UInt8] {
        try DynamicMessage(serializedBytes: bytes, schema: schemas.message(type)!, in: schemas).serializedBytes()
    }
    static func oracleReads(_ type: String, _ bytes: [UInt8]) -> DynamicMessage? {
        try? DynamicMessage(serializedBytes: bytes, schema: schemas.message(type)!, in: schemas)
    }
    /// Every oracle exemplar of a type, by name, with the bytes the facades build (nanopb's
    /// packing) and the canonical bytes a peer writes.
    static func exemplars(_ type: String) -> [(name: String, bytes: [UInt8], canonical: [UInt8])] {
        Exemplars(schemas: schemas).all(for: schemas.message(type)!).map {
            ($0.name, $0.message.serializedBytes(options: .nanopb), $0.message.serializedBytes())
        }
    }
    /// How many exemplars of a type the facades write otherwise than canonically.
    static func packedByFacades(_ type: String) -> Int { exemplars(type).filter { $0.bytes != $0.canonical }.count }
    /// The exemplars mutants are made of.
    static func seeds(_ type: String) -> [[UInt8]] {
        exemplars(type).filter { !$0.name.contains("#") && !$0.name.contains("!") }.map(\.bytes)
    }
    /// Stand-in facades for both types and for "pp.Ghost", which the schema set does not declare
    /// (sorted between the two, so a lookup that stopped at it would lose pp.Zed).
    static let catalog: FacadeCatalog = {
        let types = ["pp.Ay", "pp.Ghost", "pp.Zed"].map { name in
            FacadeMessageType(name) { try oracleRoundTrip(name, $0) }
        }
        let built = typeNames.flatMap { type in
            exemplars(type).map { exemplar in FacadeExemplar(exemplar.name, type, build: { exemplar.bytes }) }
        }
        return FacadeCatalog(messageTypes: types, exemplars: built, exclusions: [], protoDirectoryHint: nil)
    }()
    /// The mutants `run` judges for `type` under `seed`, regenerated from the generator's contract.
    static func mutants(_ type: String, seed: UInt64, perType: Int) -> [[UInt8]] {
        seeds(type).flatMap { original in
            var random = SplitMix64(seed: seed ^ DecodeMutationCheck.stableHash(type))
            return (0..<perType).map { _ in DecodeMutationCheck.mutate(original, &random) }
        }
    }
    /// A peer that reads as the oracle; `refuse` may name a reason to refuse an input instead.
    static func peer(_ name: String, refusing refuse: @escaping @Sendable (String, [UInt8]) -> String? = { _, _ in nil }) -> PeerCodec {
        PeerCodec(name: name) { type, bytes in
            guard typeNames.contains(type) else { return nil }
            if let reason = refuse(type, bytes) { return .rejected(reason) }
            guard let again = try? oracleRoundTrip(type, bytes) else { return .rejected("malformedProtobuf") }
            return .accepted(again)
        }
    }
    static func row(_ report: PeerProofReport, _ file: String) -> PeerProofReport.Row? { report.rows.first { $0.file == file } }

    @Test func theExemplarsIncludeOneofVariantsAndEdgesThatMakeNoMutants() {
        let names = Self.exemplars("pp.Zed").map(\.name)
        #expect(names.contains { $0.contains("#") } && names.contains { $0.contains("!") }, "\(names)")
        #expect(Self.seeds("pp.Zed").count < names.count)
    }

    @Test func aPeerReadingAsTheOracleIsSameOnEveryExemplarAndMutantPerFileInSchemaOrder() throws {
        var progress: [String] = []
        let report = PeerProof.run(catalog: Self.catalog, peer: Self.peer("echo"), schemas: Self.schemas,
                                   configuration: SchemaProofConfiguration(mutantsPerType: 3, seed: 11)) { label, done, of in
            progress.append("\(label) \(done)/\(of)")
        }
        #expect(report.peer == "echo")
        #expect(report.rows.map(\.file) == ["pp/z.proto", "pp/a.proto"])
        #expect(report.failures.isEmpty, "\(report.failures)")
        let packed = Self.packedByFacades("pp.Ay")
        #expect(packed > 0 && Self.packedByFacades("pp.Zed") == 0)
        #expect(report.explainedBy == ["6": packed])
        for (type, file) in zip(Self.typeNames, ["pp/z.proto", "pp/a.proto"]) {
            let row = try #require(Self.row(report, file))
            let counts: [Int] = [row.exemplarsSame, row.exemplarsExplained, row.mutantsSame, row.mutantsExplained, row.failed]
            let explained = Self.packedByFacades(type)
            #expect(counts == [Self.exemplars(type).count - explained, explained, 3 * Self.seeds(type).count, 0, 0], "\(file)")
        }
        let exemplarCount = Self.catalog.exemplars.count, seedCount = Self.seeds("pp.Zed").count + Self.seeds("pp.Ay").count
        let total = report.total
        #expect(total.file == "total")
        #expect([total.exemplarsSame, total.exemplarsExplained, total.mutantsSame, total.mutantsExplained, total.failed] as [Int]
                == [exemplarCount - packed, packed, 3 * seedCount, 0, 0])
        #expect(progress == (1...exemplarCount).map { "echo exemplars \($0)/\(exemplarCount)" }
                + (1...seedCount).map { "echo mutants \($0)/\(seedCount)" })
    }

    @Test func noMutantsAreJudgedWhenTheConfigurationAsksForNone() throws {
        let report = PeerProof.run(catalog: Self.catalog, peer: Self.peer("refuser") { _, _ in "garbage" }, schemas: Self.schemas,
                                   configuration: SchemaProofConfiguration(mutantsPerType: 0))
        let z = try #require(Self.row(report, "pp/z.proto")), a = try #require(Self.row(report, "pp/a.proto"))
        #expect([z.exemplarsSame, z.mutantsSame, z.failed] as [Int] == [0, 0, Self.exemplars("pp.Zed").count])
        #expect([a.exemplarsSame, a.mutantsSame, a.failed] as [Int] == [0, 0, Self.exemplars("pp.Ay").count])
        #expect(report.failures.count == Self.catalog.exemplars.count)
        #expect(report.failures.first == #"[refuser exemplar] pp.Zed exemplar pp.Zed: refuser rejects the oracle's bytes: rejected("garbage")"#)
    }

    @Test func aPeerRefusingEverythingFailsOnEveryMutantTheOracleAccepts() throws {
        let seed: UInt64 = 5
        let report = PeerProof.run(catalog: Self.catalog, peer: Self.peer("refuser") { _, _ in "garbage" }, schemas: Self.schemas,
                                   configuration: SchemaProofConfiguration(mutantsPerType: 4, seed: seed))
        var failures = Self.catalog.exemplars.count
        for (type, file) in zip(Self.typeNames, ["pp/z.proto", "pp/a.proto"]) {
            let mutants = Self.mutants(type, seed: seed, perType: 4)
            let read = mutants.filter { Self.oracleReads(type, $0) != nil }.count
            let row = try #require(Self.row(report, file))
            #expect([row.mutantsSame, row.mutantsExplained, row.failed] as [Int] == [mutants.count - read, 0, Self.exemplars(type).count + read], "\(file)")
            failures += read
        }
        #expect(report.failures.count == failures)
        #expect(report.failures.contains { $0.hasPrefix("[refuser mutant] seed 5 pp.Zed mutant ") && $0.contains(": refuser rejects (garbage), the oracle accepts") })
    }

    @Test func refusalsOfMessagesMissingTheRequiredFieldAreCountedUnderRowS1() throws {
        let seed: UInt64 = 3
        let refusesIncomplete = Self.peer("strict") { type, bytes in
            Self.oracleReads(type, bytes).map { $0.isInitialized ? nil : "missingRequiredFields" } ?? nil
        }
        let report = PeerProof.run(catalog: Self.catalog, peer: refusesIncomplete, schemas: Self.schemas,
                                   configuration: SchemaProofConfiguration(mutantsPerType: 16, seed: seed))
        #expect(report.failures.isEmpty, "\(report.failures)")
        let zedMutants = Self.mutants("pp.Zed", seed: seed, perType: 16)
        let incomplete = zedMutants.filter { Self.oracleReads("pp.Zed", $0).map { !$0.isInitialized } ?? false }.count
        #expect(incomplete > 0, "the seed makes no mutant without the required field")
        let z = try #require(Self.row(report, "pp/z.proto")), a = try #require(Self.row(report, "pp/a.proto"))
        #expect([z.mutantsSame, z.mutantsExplained, z.failed] as [Int] == [zedMutants.count - incomplete, incomplete, 0])
        #expect([a.mutantsSame, a.mutantsExplained] as [Int] == [16 * Self.seeds("pp.Ay").count, 0])
        #expect(report.explainedBy == ["S1": incomplete, "6": Self.packedByFacades("pp.Ay")])
        #expect(report.total.mutantsExplained == incomplete)
    }

    @Test func facadeBytesNoRuleExplainsFailTheExemplar() throws {
        let zed = try #require(Self.schemas.message("pp.Zed"))
        let exemplar = try #require(Exemplars(schemas: Self.schemas).all(for: zed).first)
        let canonical = exemplar.message.serializedBytes()
        guard case .failed(let why) = PeerProof.judgeExemplar(canonical + [0x10, 0x01], oracle: exemplar, messageType: "pp.Zed", peer: Self.peer("echo")) else {
            Issue.record("facade bytes no rule explains were not a failure"); return
        }
        #expect(why.hasPrefix("facade and echo differ at byte \(canonical.count), unexplained: no known difference applies"), "\(why)")
    }
}
