// Open enums: unknown numbers survive, named cases still pattern-match.

import Testing
import TestSupport
import NanopbRuntime
import BundledProto

@Suite struct EnumTests {
    @Test func unknownEnumValuesRoundTripThroughDecodeAndEncode() throws {
        try expectBalancedAllocations { () throws in
            // Codec.codec (field 1) = 77, a number MediaCodec does not name.
            let decoded = try Rtm_Codec(serializedBytes: [0x08, 77])
            #expect(decoded.codec.rawValue == 77)
            #expect(try decoded.serializedBytes() == [0x08, 77])
            let rebuilt = Rtm_Codec.with { $0.codec = Rtm_MediaCodec(rawValue: 77) }
            #expect(rebuilt == decoded)
        }
    }

    @Test func negativeEnumValuesRoundTrip() throws {
        try expectBalancedAllocations { () throws in
            let error = Rtm_Error.with { $0.code = .transportClosed }
            let back = try roundTrip(error)
            #expect(back.code == .transportClosed && back.code.rawValue == -2)
        }
    }

    @Test func namedCasesPatternMatchAndAliasesShareANumber() {
        expectBalancedAllocations {
            let quality = Rtm_ConnectionQuality(rawValue: 3)
            let matched: Bool
            switch quality {
            case .excellent: matched = true
            default: matched = false
            }
            #expect(matched)
            #expect(Rtm_ErrorCode.invalidToken == .unauthenticated)
        }
    }

    @Test func unknownValuesInRepeatedAndMapEnumsSurvive() throws {
        try expectBalancedAllocations { () throws in
            let join = Rtm_Join.with { $0.preferredCodecs = [Rtm_MediaCodec(rawValue: 1000), .h265] }
            #expect(try roundTrip(join).preferredCodecs.map(\.rawValue) == [1000, 13])
        }
    }
}
