// The extremes of sizes and field numbers that the runtime's configuration must carry.

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct WireLimitTests {
    @Test func aHundredThousandByteBytesFieldRoundTrips() async throws {
        // Above 65,535: with 16-bit pb_size_t (no PB_FIELD_32BIT) the length would not fit.
        let oracle = try await Oracle.bundled()
        let payload = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let wire = [0x0A] + varint(100_000) + payload  // UserPayload.payload
        let facade = Rtm_UserPayload.with { $0.payload = payload }
        #expect(try facade.serializedBytes() == wire)
        let back = try Rtm_UserPayload(serializedBytes: wire)
        #expect(back.payload == payload)
        #expect(back == facade)

        let decoded = try oracle.decode(wire, as: "rtm.UserPayload")
        #expect(decoded[number: 1] == .bytes(payload))
        #expect(decoded.serializedBytes() == wire)
    }

    @Test func fieldNumber536870911RoundTrips() async throws {
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0xFA, 0xFF, 0xFF, 0xFF, 0x0F, 0x03, 1, 2, 3]  // DataPacket.padding
        let facade = Rtm_DataPacket.with { $0.padding = [1, 2, 3] }
        #expect(try facade.serializedBytes() == wire)
        #expect(try Rtm_DataPacket(serializedBytes: wire).padding == [1, 2, 3])

        let decoded = try oracle.decode(wire, as: "rtm.DataPacket")
        #expect(decoded[number: 536_870_911] == .bytes([1, 2, 3]))
        #expect(decoded.serializedBytes() == wire)
    }
}
