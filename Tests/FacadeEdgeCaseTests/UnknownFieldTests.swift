// nanopb skips fields its descriptor does not declare and keeps nothing of them, so a facade's
// re-encoding (and every copy, which is a round trip) drops them. The oracle keeps them.

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct UnknownFieldTests {
    static let known: [UInt8] = [0x08, 0x01]  // Codec.codec = OPUS
    static let unknown: [UInt8] =
        key(99, 0) + varint(5)                               // varint
        + lengthDelimited(100, [1, 2, 3])                    // length-delimited
        + key(101, 5) + [1, 2, 3, 4]                         // fixed32
        + key(102, 1) + [UInt8](repeating: 7, count: 8)      // fixed64

    @Test func unknownFieldsAreDroppedOnReEncodeWhileTheOracleKeepsThem() async throws {
        let oracle = try await Oracle.bundled()
        let wire = Self.known + Self.unknown
        let facade = try Rtm_Codec(serializedBytes: wire)
        #expect(facade.codec == .opus)
        #expect(try facade.serializedBytes() == Self.known)
        #expect(facade == (try Rtm_Codec(serializedBytes: Self.known)))

        let decoded = try oracle.decode(wire, as: "rtm.Codec")
        #expect(decoded.unknownFields.map(\.number) == [99, 100, 101, 102])
        #expect(decoded.serializedBytes() == wire)
        #expect(decoded != (try oracle.decode(Self.known, as: "rtm.Codec")))
    }

    @Test func unknownFieldsInASubmessageDoNotSurviveACopy() async throws {
        let oracle = try await Oracle.bundled()
        let wire = lengthDelimited(6, [0x22, 0x01, 0x61] + Self.unknown)  // chat { text: "a" + unknown }
        let chat = try Rtm_DataPacket(serializedBytes: wire).chat
        #expect(try chat.serializedBytes() == [0x22, 0x01, 0x61])
        // owned() copies a view by an encode/decode round trip.
        #expect(try chat.owned().serializedBytes() == [0x22, 0x01, 0x61])

        let reference = try #require(oracle.decode(wire, as: "rtm.DataPacket")[number: 6]?.messageValue)
        #expect(reference.unknownFields.count == 4)
        #expect(reference.serializedBytes() == [0x22, 0x01, 0x61] + Self.unknown)
    }
}
