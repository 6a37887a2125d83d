// What an absent field reads as when the schema names no default. proto2 gives an enum field the
// enum's first declared value, which need not be 0 (rtm.LegacyCodec starts at LEGACY_CODEC_VP8 = 1).

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct ImplicitDefaultTests {
    @Test func anAbsentProto2EnumWithoutADefaultReadsAsTheFirstDeclaredValue() async throws {
        let oracle = try await Oracle.bundled()
        let codec = try #require(oracle.schemas.enumType("rtm.LegacyCodec"))
        let first = try #require(codec.values.first)
        #expect(first.number != 0, "the schema must keep an enum whose first value is not 0")

        let built = Rtm_LegacyJoinResponse.with { $0.accepted = true }
        #expect(!built.hasFallbackCodec)
        #expect(built.fallbackCodec.rawValue == first.number)
        let decoded = try Rtm_LegacyJoinResponse(serializedBytes: [0x08, 0x01])  // accepted = true
        #expect(!decoded.hasFallbackCodec && decoded.fallbackCodec.rawValue == first.number)
        // A builder reads the same default before anything is stored.
        _ = Rtm_LegacyJoinResponse.with { #expect($0.fallbackCodec.rawValue == first.number) }
        // Stored explicitly, the first value is present and encoded (field 7, varint 1).
        let explicit = Rtm_LegacyJoinResponse.with { $0.accepted = true; $0.fallbackCodec = Rtm_LegacyCodec(rawValue: first.number) }
        #expect(explicit.hasFallbackCodec)
        #expect(try explicit.serializedBytes() == [0x08, 0x01, 0x38, UInt8(first.number)])
        #expect(try oracle.decode(explicit.serializedBytes(), as: "rtm.LegacyJoinResponse").has(named: "fallback_codec"))
    }

    @Test func aSingleMemberOneofIsAOneofThroughFacadeAndOracle() async throws {
        let oracle = try await Oracle.bundled()
        let schema = try #require(oracle.schemas.message("rtm.LegacyJoinResponse"))
        #expect(schema.realOneofs.map(\.name).contains("retry"))
        // Set, the member is encoded even when zero (a oneof member has presence) ...
        let zero = Rtm_LegacyJoinResponse.with { $0.accepted = true; $0.retry = .retryAfterS(0) }
        #expect(zero.retry == .retryAfterS(0))
        let bytes = try zero.serializedBytes()
        #expect(bytes == [0x08, 0x01, 0x40, 0x00])
        let decoded = try oracle.decode(bytes, as: "rtm.LegacyJoinResponse")
        let retry = try #require(schema.realOneofs.first { $0.name == "retry" })
        #expect(decoded.presentMember(of: retry)?.name == "retry_after_s")
        // ... and unset it is absent from both.
        let unset = Rtm_LegacyJoinResponse.with { $0.accepted = true; $0.retry = .retryAfterS(3); $0.retry = nil }
        #expect(unset.retry == nil)
        #expect(try unset.serializedBytes() == [0x08, 0x01])
    }
}
