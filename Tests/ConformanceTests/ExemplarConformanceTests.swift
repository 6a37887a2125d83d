// Exemplar conformance: for every exemplar the oracle defines for the bundled schema (every
// message, every oneof variant, every edge value), the facades, given the same message through
// their builders (the generated catalog, written by `make proto`), must
//   (a) write the bytes the oracle writes for it (under the nanopb profile, see KnownDifference),
//   (b) read those bytes back and write them again unchanged,
//   (c) write bytes the oracle reads back as exactly the exemplar.
// The checks are FacadeProof's ExemplarCheck, the same code `wireproof prove` runs on any schema.

import BundledProtoCatalog
import FacadeProof
import ProtoOracle
import ProtoSchema
import Testing
import TestSupport

@Suite("Exemplar conformance: facades against the oracle")
struct ExemplarConformanceTests {
    @Test("(a) the facade-built exemplar encodes byte-identically to the oracle", arguments: catalogExemplars)
    func facadeEncodesLikeTheOracle(_ generated: FacadeExemplar) async throws {
        let exemplar = try await BundledSchema.exemplar(named: generated.name)
        #expect(exemplar.message.fullName == generated.messageType)
        let verdict = ExemplarCheck.encodesLikeOracle(try generated.build(), oracle: exemplar)
        #expect(verdict.failure == nil, "\(verdict.failure?.detail ?? "") (first differing byte \(verdict.failure?.at ?? -1))")
    }

    @Test("(b) facade decode then re-encode reproduces the bytes", arguments: catalogExemplars)
    func facadeRoundTripIsStable(_ generated: FacadeExemplar) throws {
        let messageType = try #require(facadeCatalog.messageType(named: generated.messageType))
        let bytes = try generated.build()
        let again = try messageType.decodeReencode(bytes)
        #expect(again == bytes, "re-encoded bytes differ at byte \(firstDifference(again, bytes))")
    }

    @Test("(c) the oracle decodes the facade's bytes to the exemplar", arguments: catalogExemplars)
    func oracleReadsTheFacadeBytesAsTheExemplar(_ generated: FacadeExemplar) async throws {
        let exemplar = try await BundledSchema.exemplar(named: generated.name)
        let loaded = try await BundledSchema.loaded()
        let problem = ExemplarCheck.oracleReadsBack(try generated.build(), oracle: exemplar, schemas: loaded.schemas)
        #expect(problem == nil, "\(problem ?? "")")
    }

    @Test("the whole proof of the bundled schema passes, as wireproof prove runs it")
    func schemaProofPasses() async throws {
        let loaded = try await BundledSchema.loaded()
        let report = SchemaProof.run(catalog: facadeCatalog, schemas: loaded.schemas, configuration: .init(mutantsPerType: 8))
        #expect(report.failures.isEmpty, "\(report.failures.prefix(5))")
        #expect(report.missing.isEmpty, "\(report.missing.prefix(5))")
        #expect(report.total.exemplars == facadeCatalog.exemplars.count)
        #expect(report.total.passed == report.total.exemplars)
        #expect(report.total.mutantsAccepted + report.total.mutantsRejected > 0)
        // The bundled schema has proto2 unpacked repeated numbers: deviation row 6 explains exemplars.
        #expect(report.deviations.first { $0.row == 6 }?.explainedExemplars ?? 0 > 0)
    }
}
