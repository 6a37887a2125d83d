// A varint wider than its 32-bit field: Google's parsers (and the oracle) keep the low 32 bits;
// nanopb rejects uint32, sint32 and bool ("integer too large" / "varint overflow") and truncates
// only int32 (pb_decode.c casts int32 through int32_t, for old encoders' sake).

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct OverwideVarintTests {
    @Test func anOverwideUint32IsRejectedWhereTheOracleTruncates() async throws {
        let oracle = try await Oracle.bundled()
        let wire = [0x18] + varint(1 << 32 | 5)  // Codec.clock_rate
        #expect(throws: NanopbError.decodeFailed(reason: .integerTooLarge, offset: 6)) {
            try Rtm_Codec(serializedBytes: wire)
        }
        #expect(try oracle.decode(wire, as: "rtm.Codec")[number: 3] == .uint32(5))
    }

    @Test func anOverwideSint32IsRejectedWhereTheOracleTruncates() async throws {
        let oracle = try await Oracle.bundled()
        let wire = [0x48] + varint(1 << 33 | 4)  // RtpStreamStats.rtt_delta_us; low 32 bits zigzag to 2
        #expect(throws: NanopbError.decodeFailed(reason: .integerTooLarge, offset: 6)) {
            try Rtm_RtpStreamStats(serializedBytes: wire)
        }
        #expect(try oracle.decode(wire, as: "rtm.RtpStreamStats")[number: 9] == .int32(2))
    }

    @Test func anOverwideBoolIsRejectedWhereTheOracleReadsTrue() async throws {
        let oracle = try await Oracle.bundled()
        let wire = [0x18] + varint(1 << 40 | 1)  // Reaction.remove
        #expect(throws: NanopbError.decodeFailed(reason: .varintOverflow, offset: 7)) {
            try Rtm_Reaction(serializedBytes: wire)
        }
        #expect(try oracle.decode(wire, as: "rtm.Reaction")[number: 3] == .bool(true))
    }

    @Test func anOverwideRepeatedUint32IsRejectedWhereTheOracleTruncates() async throws {
        let oracle = try await Oracle.bundled()
        let element = varint(1 << 32 | 96)
        let wire = [0x32, UInt8(element.count)] + element  // Codec.payload_types, packed
        #expect(throws: NanopbError.decodeFailed(reason: .integerTooLarge, offset: wire.count)) {
            try Rtm_Codec(serializedBytes: wire)
        }
        #expect(try oracle.decode(wire, as: "rtm.Codec").repeated(number: 6) == [.uint32(96)])
    }

    @Test func anOverwideInt32IsTruncatedByBoth() async throws {
        let oracle = try await Oracle.bundled()
        let wire = [0x28] + varint(1 << 32 | 7)  // RtpStreamStats.jitter_ms
        let facade = try Rtm_RtpStreamStats(serializedBytes: wire)
        #expect(facade.jitterMs == 7)
        #expect(try facade.serializedBytes() == [0x28, 0x07])
        let decoded = try oracle.decode(wire, as: "rtm.RtpStreamStats")
        #expect(decoded[number: 5] == .int32(7))
        #expect(decoded.serializedBytes() == [0x28, 0x07])
    }

    @Test func anOverwideInt32ThatTruncatesToZeroIsReEncodedAsAnExplicitZero() async throws {
        // Conformance's ValidDataScalarBinary.INT32[6]: the explicit-zero rule, not a varint one.
        let oracle = try await Oracle.bundled()
        let wire = [0x28] + varint(1 << 32)
        let facade = try Rtm_RtpStreamStats(serializedBytes: wire)
        #expect(facade.jitterMs == 0)
        #expect(try facade.serializedBytes() == [0x28, 0x00])
        let decoded = try oracle.decode(wire, as: "rtm.RtpStreamStats")
        #expect(!decoded.has(number: 5) && decoded.serializedBytes() == [])
    }
}
