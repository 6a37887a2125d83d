import FacadeProof
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

/// Check (a) of the proof sorts a facade's bytes into three cases: the canonical encoding
/// (identical), the nanopb profile of a known difference (explained, not identical, no failure),
/// and anything else (a failure at the first differing byte, never identical).
@Suite struct ExemplarEncodingCheckTests {
    /// `repeated int32 v = 1 [packed = false]` holding [1, 2]: canonical is unpacked, nanopb packs it.
    static func unpackedExemplar() throws -> Exemplar {
        let schemas = try InlineSchema.compile(["k.proto": "syntax = \"proto3\"; package k; message M { repeated int32 v = 1 [packed = false]; }"])
        var message = try #require(DynamicMessage("k.M", in: schemas))
        message.setRepeated(number: 1, [.int32(1), .int32(2)])
        return Exemplar(name: "k.M", message: message)
    }

    @Test func theCanonicalEncodingIsIdentical() throws {
        let result = ExemplarCheck.encodesLikeOracle([0x08, 0x01, 0x08, 0x02], oracle: try Self.unpackedExemplar())
        #expect(result.identical && result.explainedBy.isEmpty && result.failure == nil)
    }

    @Test func theNanopbProfileOfAKnownDifferenceIsExplainedNotIdentical() throws {
        let result = ExemplarCheck.encodesLikeOracle([0x0a, 0x02, 0x01, 0x02], oracle: try Self.unpackedExemplar())
        #expect(!result.identical)
        #expect(result.explainedBy == [KnownDifference.packsEveryRepeatedNumber])
        #expect(result.failure == nil)
    }

    @Test func otherBytesFailAtTheFirstDifferenceAndAreNeverIdentical() throws {
        let exemplar = try Self.unpackedExemplar()
        // Differs from the nanopb profile (0a 02 01 02) at byte 3.
        let wrong = ExemplarCheck.encodesLikeOracle([0x0a, 0x02, 0x01, 0x03], oracle: exemplar)
        #expect(!wrong.identical)
        #expect(wrong.failure?.at == 3, "\(String(describing: wrong.failure))")
        // A message no known difference touches: anything but the canonical bytes fails.
        var plain = exemplar.message
        plain.setRepeated(number: 1, [])
        let empty = ExemplarCheck.encodesLikeOracle([0x08, 0x00], oracle: Exemplar(name: "k.M", message: plain))
        #expect(!empty.identical && empty.explainedBy.isEmpty && empty.failure?.at == 0)
    }
}
