// Enum numbers the schema does not name, and nanopb's unsigned storage of enums without negative
// values (its generator marks them UENUM: decoded and encoded as uint32).

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct EnumValueTests {
    @Test func unknownOpenEnumValuesSurviveAFacadeRoundTripAndTheOracleAgrees() async throws {
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0x08, 77]  // Codec.codec = 77
        let facade = try Rtm_Codec(serializedBytes: wire)
        #expect(facade.codec == Rtm_MediaCodec(rawValue: 77))
        #expect(try facade.serializedBytes() == wire)
        let decoded = try oracle.decode(wire, as: "rtm.Codec")
        #expect(decoded[number: 1] == .enumValue(77))
        #expect(decoded.serializedBytes() == wire)

        let repeated: [UInt8] = [0x2A, 0x03, 0xE8, 0x07, 13]  // Join.preferred_codecs = [1000, H265]
        let join = try Rtm_Join(serializedBytes: repeated)
        #expect(join.preferredCodecs == [Rtm_MediaCodec(rawValue: 1000), .h265])
        #expect(try join.serializedBytes() == repeated)
        let reference = try oracle.decode(repeated, as: "rtm.Join")
        #expect(reference.repeated(number: 5) == [.enumValue(1000), .enumValue(13)])
        #expect(reference.serializedBytes() == repeated)
    }

    @Test func anUnknownClosedEnumValueIsKeptAsTheFieldWhereTheOracleMovesItToUnknownFields() async throws {
        // proto2 enums are closed: the specification keeps an unknown number as an unknown field.
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0x0A, 0x01, 0x74, 0x10, 0x01, 0x30, 77]  // token "t", protocol_version 1, preferred_codec 77
        let facade = try Rtm_LegacyJoinRequest(serializedBytes: wire)
        #expect(facade.preferredCodec.rawValue == 77 && facade.hasPreferredCodec)
        #expect(try facade.serializedBytes() == wire)

        let decoded = try oracle.decode(wire, as: "rtm.LegacyJoinRequest")
        #expect(!decoded.has(number: 6))
        #expect(decoded.unknownFields == [.varint(6, 77)])
        #expect(decoded.serializedBytes() == wire)  // same bytes here: field 6 is the last one
    }

    @Test func aNegativeValueOfAnEnumWithoutNegativeMembersFailsToDecode() async throws {
        // MediaCodec declares no negative number, so nanopb stores it unsigned: -1 (a 10-byte
        // varint) does not fit in 32 unsigned bits.
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x01]
        #expect(throws: NanopbError.decodeFailed(reason: .integerTooLarge, offset: 11)) {
            try Rtm_Codec(serializedBytes: wire)
        }
        #expect(try oracle.decode(wire, as: "rtm.Codec")[number: 1] == .enumValue(-1))
    }

    @Test func aNegativeValueOfAnEnumWithoutNegativeMembersEncodesInFiveBytes() async throws {
        let oracle = try await Oracle.bundled()
        let facade = Rtm_Codec.with { $0.codec = Rtm_MediaCodec(rawValue: -1) }
        let fiveBytes: [UInt8] = [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        #expect(try facade.serializedBytes() == fiveBytes)
        #expect(try Rtm_Codec(serializedBytes: fiveBytes).codec.rawValue == -1)

        var reference = try oracle.message("rtm.Codec")
        reference[number: 1] = .enumValue(-1)
        #expect(reference.serializedBytes() == [0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        // The same value once truncated to 32 bits: the oracle reads the facade's bytes as -1.
        #expect(try oracle.decode(fiveBytes, as: "rtm.Codec") == reference)
    }

    @Test func negativeValuesOfAnEnumWithNegativeMembersMatchTheOracle() async throws {
        // ConnectionQuality declares negative numbers: nanopb stores it signed (10-byte varint).
        let oracle = try await Oracle.bundled()
        let facade = Rtm_QualityChanged_Entry.with { $0.quality = .stalled }
        var reference = try oracle.message("rtm.QualityChanged.Entry")
        reference[number: 2] = .enumValue(-2)
        #expect(try facade.serializedBytes() == reference.serializedBytes())
        #expect(try Rtm_QualityChanged_Entry(serializedBytes: reference.serializedBytes()).quality == .stalled)
    }
}
