// Exemplar conformance: for every exemplar the oracle defines for the bundled schema (every
// message, every oneof variant, every edge value), the facades, given the same message through
// their builders (Generated/, written by `make proto`), must
//   (a) write the bytes the oracle writes for it (under the nanopb profile, see KnownDifference),
//   (b) read those bytes back and write them again unchanged,
//   (c) write bytes the oracle reads back as exactly the exemplar.

import BundledProto
import ProtoOracle
import ProtoSchema
import Testing

@Suite("Exemplar conformance: facades against the oracle")
struct ExemplarConformanceTests {
    @Test("(a) the facade-built exemplar encodes byte-identically to the oracle", arguments: generatedExemplars)
    func facadeEncodesLikeTheOracle(_ generated: GeneratedExemplar) async throws {
        let exemplar = try await BundledSchema.exemplar(named: generated.name)
        #expect(exemplar.message.fullName == generated.messageType)
        let facade = try generated.build()
        let canonical = exemplar.message.serializedBytes()
        if facade == canonical { return }
        // Not canonical: must be explained by a known difference and match the oracle's encoding
        // under the nanopb profile exactly.
        let differences = KnownDifference.affecting(exemplar.message)
        let profile = exemplar.message.serializedBytes(options: .nanopb)
        #expect(!differences.isEmpty, "facade bytes differ from the oracle's with no known difference applying")
        #expect(facade == profile, """
            facade and oracle (nanopb profile) disagree at byte \(firstDifference(facade, profile))
              facade: \(hexPreview(facade))
              oracle: \(hexPreview(profile))
            """)
    }

    @Test("(b) facade decode then re-encode reproduces the bytes", arguments: generatedExemplars)
    func facadeRoundTripIsStable(_ generated: GeneratedExemplar) throws {
        let bytes = try generated.build()
        let again = try generated.decodeReencode(bytes)
        #expect(again == bytes, "re-encoded bytes differ at byte \(firstDifference(again, bytes))")
    }

    @Test("(c) the oracle decodes the facade's bytes to the exemplar", arguments: generatedExemplars)
    func oracleReadsTheFacadeBytesAsTheExemplar(_ generated: GeneratedExemplar) async throws {
        let exemplar = try await BundledSchema.exemplar(named: generated.name)
        let loaded = try await BundledSchema.loaded()
        let facade = try generated.build()
        let decoded = try DynamicMessage(serializedBytes: facade, schema: exemplar.message.schema, in: loaded.schemas)
        #expect(decoded == exemplar.message, """
            oracle reads the facade's bytes as
            \(decoded)
            expected
            \(exemplar.message)
            """)
    }
}
