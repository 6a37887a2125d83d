// Strings are C strings in nanopb: an embedded NUL ends them. nanopb (built without
// PB_VALIDATE_UTF8) does not check UTF-8; the facade's getter repairs invalid sequences when it
// makes a Swift String, and the stored bytes are re-encoded as they arrived.

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct StringTests {
    static let withNul = Array("ab\u{0}cd".utf8)

    @Test func anEmbeddedNulTruncatesAStringWhereTheOracleKeepsIt() async throws {
        let oracle = try await Oracle.bundled()
        let wire = lengthDelimited(2, Self.withNul)  // Codec.mime_type
        let facade = try Rtm_Codec(serializedBytes: wire)
        #expect(facade.mimeType == "ab")
        #expect(try facade.serializedBytes() == lengthDelimited(2, Array("ab".utf8)))

        let decoded = try oracle.decode(wire, as: "rtm.Codec")
        #expect(decoded[number: 2] == .string(Self.withNul))
        #expect(decoded.serializedBytes() == wire)
    }

    @Test func aBuiltStringWithANulIsEncodedUpToTheNul() async throws {
        let oracle = try await Oracle.bundled()
        let facade = Rtm_Codec.with { $0.mimeType = "ab\u{0}cd" }
        #expect(facade.mimeType == "ab")
        #expect(try facade.serializedBytes() == lengthDelimited(2, Array("ab".utf8)))

        var reference = try oracle.message("rtm.Codec")
        reference[number: 2] = .text("ab\u{0}cd")
        #expect(reference.serializedBytes() == lengthDelimited(2, Self.withNul))
    }

    @Test func invalidUTF8InAProto3StringIsAcceptedByTheFacadeAndRejectedByTheOracle() async throws {
        let oracle = try await Oracle.bundled()
        let wire = lengthDelimited(2, [0x61, 0xFF, 0x62])  // Codec.mime_type = "a", 0xFF, "b"
        let facade = try Rtm_Codec(serializedBytes: wire)
        #expect(facade.mimeType == "a\u{FFFD}b")              // repaired when read
        #expect(try facade.serializedBytes() == wire)          // stored bytes re-encoded unchanged
        #expect(try facade.modifying { $0.clockRate = 1 }.serializedBytes() == wire + [0x18, 0x01])

        // proto3 requires UTF-8: the oracle rejects at the first byte of the bad sequence.
        #expect(try oracle.decodeError(wire, as: "rtm.Codec") == OracleDecodeError(.invalidUTF8, at: 3))
    }

    @Test func invalidUTF8InAProto2StringIsAcceptedByBoth() async throws {
        // proto2 strings may hold any bytes; nanopb treats both syntaxes alike.
        let oracle = try await Oracle.bundled()
        let wire = lengthDelimited(1, [0xC3]) + [0x10, 0x01]  // LegacyJoinRequest.token, protocol_version
        let facade = try Rtm_LegacyJoinRequest(serializedBytes: wire)
        #expect(facade.token == "\u{FFFD}")
        #expect(try facade.serializedBytes() == wire)
        let decoded = try oracle.decode(wire, as: "rtm.LegacyJoinRequest")
        #expect(decoded[number: 1] == .string([0xC3]))
        #expect(decoded.serializedBytes() == wire)
    }
}
