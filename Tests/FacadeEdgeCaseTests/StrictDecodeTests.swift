// Inputs nanopb refuses where Google's parser (and the oracle) accept them: docs/deviations.md
// rows 17-19. Each test pins the facade's refusal and the oracle's reading of the same bytes.

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

/// nanopb's reason for refusing `decode`; nil (and an issue) when it accepts.
private func facadeReason(_ decode: () throws -> Void) -> String? {
    do {
        try decode()
        Issue.record("the facade accepted the input")
        return nil
    } catch {
        guard case .decodeFailed(let reason, _)? = error as? NanopbError else { Issue.record("\(error)"); return nil }
        return reason
    }
}

@Suite struct StrictDecodeTests {
    /// A 10-byte varint of value 1 whose last byte carries bit 64 (`... 80 02`).
    static let overwide1: [UInt8] = [0x81] + [UInt8](repeating: 0x80, count: 8) + [0x02]

    @Test func aTenByteVarintWithBitsAbove64IsRejectedForEveryIntegerTypeWhereTheOracleDropsThem() async throws {
        // rtm.RtpStreamStats: jitter_ms int32 = 5, bytes_total int64 = 6, header_bytes uint64 = 8,
        // clock_drift_ns sint64 = 10. Google's parser discards the bits above 64 (value 1).
        let oracle = try await Oracle.bundled()
        let cases: [(tag: UInt8, number: Int32, value: ProtoValue)] = [
            (0x28, 5, .int32(1)), (0x30, 6, .int64(1)), (0x40, 8, .uint64(1)), (0x50, 10, .int64(-1)),
        ]
        for (tag, number, value) in cases {
            let wire = [tag] + Self.overwide1
            #expect(facadeReason { _ = try Rtm_RtpStreamStats(serializedBytes: wire) } == "varint overflow", "field \(number)")
            #expect(try oracle.decode(wire, as: "rtm.RtpStreamStats")[number: number] == value, "field \(number)")
        }
    }

    @Test func anUnsignedEnumValueOfAtLeast2To32IsRejectedWhereTheOracleTruncates() async throws {
        // rtm.Codec.codec (enum without negative members, nanopb UENUM) = 2^32 + 1. Google's
        // parser keeps the low 32 bits: 1.
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0x08, 0x81, 0x80, 0x80, 0x80, 0x10]
        #expect(facadeReason { _ = try Rtm_Codec(serializedBytes: wire) } == "integer too large")
        #expect(try oracle.decode(wire, as: "rtm.Codec")[number: 1] == .enumValue(1))
    }

    @Test func aProto2MessageMissingARequiredFieldIsRejectedWhereTheOracleParsesItPartially() async throws {
        // rtm.LegacyDisplay: width = 1 and height = 2 are required; only width is sent. Google's
        // ParseFromString refuses it too; the oracle parses like ParsePartialFromString (as
        // protoc --decode does) and reports the gap through isInitialized.
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0x08, 0x01]
        #expect(facadeReason { _ = try Rtm_LegacyDisplay(serializedBytes: wire) } == "missing required field")
        let reference = try oracle.decode(wire, as: "rtm.LegacyDisplay")
        #expect(!reference.isInitialized)
        #expect(reference.missingRequiredFields == ["height"])
    }
}
