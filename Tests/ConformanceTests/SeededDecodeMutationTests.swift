import BundledProtoCatalog
import FacadeProof
import NanopbRuntime
import ProtoOracle
import Testing
import TestSupport

/// Seeded mutation of valid encodings through the facade decoder: the guarantees towards untrusted
/// bytes that docs/DESIGN.md lists, checked on every message type of the bundled schema:
///   1. a rejected input throws `NanopbError.decodeFailed` with an offset inside the input
///      (a crash, a trap or a hang fails the run; under `make asan` so does any bad access or leak);
///   5. an accepted input re-encodes to bytes that the facade decodes again to the same bytes,
///      and that the oracle, a conforming parser, accepts.
/// Every mutant is derived from one fixed seed; a failure prints the seed, the message, and the
/// mutant, so it can be replayed and turned into a named regression test.
@Suite struct SeededDecodeMutationTests {
    static let seed = DecodeMutationCheck.defaultSeed
    static let mutantsPerMessage = 64

    /// One full exemplar per message type (names without a oneof or edge suffix).
    static let inputs = catalogExemplars.filter { !$0.name.contains("#") && !$0.name.contains("!") }

    @Test(arguments: inputs)
    func mutatedEncodingsFailCleanlyOrRoundTripStably(_ exemplar: FacadeExemplar) async throws {
        let loaded = try await BundledSchema.loaded()
        let schema = try #require(loaded.schemas.message(exemplar.messageType))
        let messageType = try #require(facadeCatalog.messageType(named: exemplar.messageType))
        let outcome = DecodeMutationCheck.run(messageType, original: try exemplar.build(), schema: schema,
                                              schemas: loaded.schemas, seed: Self.seed, count: Self.mutantsPerMessage)
        for failure in outcome.failures { Issue.record(Comment(rawValue: failure)) }
        #expect(outcome.accepted + outcome.rejected == Self.mutantsPerMessage)
    }

    /// The check itself can fail: a decoder that "accepts" by returning different bytes each time,
    /// or reports an offset outside the input, is caught.
    @Test func aBrokenDecoderIsCaughtByTheProperties() async throws {
        let loaded = try await BundledSchema.loaded()
        let exemplar = try #require(Self.inputs.first)
        let schema = try #require(loaded.schemas.message(exemplar.messageType))
        let real = try #require(facadeCatalog.messageType(named: exemplar.messageType))
        var accepted = 0, rejected = 0
        let unstable = FacadeMessageType(real.fullName) { bytes in try real.decodeReencode(bytes) + [0] }
        let original = try exemplar.build()
        #expect(DecodeMutationCheck.check(original, unstable, schema: schema, schemas: loaded.schemas,
                                          accepted: &accepted, rejected: &rejected) != nil)
        let badOffset = FacadeMessageType(real.fullName) { _ in throw NanopbError.decodeFailed(reason: .other("planted"), offset: 1 << 40) }
        #expect(DecodeMutationCheck.check(original, badOffset, schema: schema, schemas: loaded.schemas,
                                          accepted: &accepted, rejected: &rejected) != nil)
    }
}
