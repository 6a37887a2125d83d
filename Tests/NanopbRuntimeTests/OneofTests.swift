// Oneofs: one Swift enum per oneof, switching variants releases the old payload, per-member
// accessors read the active variant or the default.

import Testing
import TestSupport
@_spi(NanopbFacade) import NanopbRuntime
import BundledProto

@Suite struct OneofTests {
    @Test func everyVariantKindRoundTrips() throws {
        try expectBalancedAllocations { () throws in
            let variants: [Rtm_DataPacket_OneOf_Value] = [
                .user(.with { $0.payload = [1, 2]; $0.topic = "t" }),
                .chat(.with { $0.text = "hi"; $0.quoted = .with { $0.text = "earlier" } }),
                .opaque([0, 255]), .debugText("dbg"), .clockOffsetUs(-5), .probeNonce(.max),
                .ackUntil(33_554_431), .keepalive(false),
            ]
            for variant in variants {
                let packet = Rtm_DataPacket.with { $0.value = variant; $0.sequence = 3 }
                let back = try roundTrip(packet)
                #expect(back.value == variant, "variant \(variant)")
            }
        }
    }

    @Test func switchingVariantsReleasesTheOldPayloadAndKeepsOnlyTheNewOne() throws {
        try expectBalancedAllocations { () throws in
            let packet = Rtm_DataPacket.with {
                $0.value = .chat(.with { $0.text = String(repeating: "x", count: 1000); $0.mentions = ["a", "b"] })
                $0.value = .debugText("now a string")            // message -> string
                $0.value = .user(.with { $0.payload = [7] })      // string -> message
                $0.value = .probeNonce(42)                         // message -> scalar
                $0.value = .opaque([1, 2, 3])                      // scalar -> bytes
            }
            #expect(packet.value == .opaque([1, 2, 3]))
            #expect(packet.chat.text == "" && packet.debugText == "" && packet.probeNonce == 0)
            #expect(packet.opaque == [1, 2, 3])
            // Exactly one variant is encoded: field 2047 (tag 0xFA 0x7F), length 3.
            #expect(try packet.serializedBytes() == [0xFA, 0x7F, 0x03, 1, 2, 3])
        }
    }

    @Test func settingTheOneofToNilClearsIt() throws {
        try expectBalancedAllocations { () throws in
            let packet = Rtm_DataPacket.with { $0.value = .keepalive(true) }.modifying { $0.value = nil }
            #expect(packet.value == nil)
            #expect(try packet.serializedBytes() == [])
        }
    }

    @Test func memberAccessorsSelectTheVariantAndReadDefaultsOtherwise() throws {
        try expectBalancedAllocations { () throws in
            let grant = Rtm_Permission_Grant.with { $0.identityPrefix = "bot-" }
            #expect(grant.subject == .identityPrefix("bot-"))
            #expect(grant.identity == "" && grant.everyone == false)
            let changed = grant.modifying { $0.everyone = false }  // a default value still selects the variant
            #expect(changed.subject == .everyone(false))
            #expect(try changed.serializedBytes() == [0x18, 0x00])
        }
    }

    @Test func decodingALaterVariantReplacesAnEarlierOne() throws {
        try expectBalancedAllocations { () throws in
            // debug_text (2048) then keepalive (33554432): the last one wins, nothing leaks.
            let string: [UInt8] = [0x82, 0x80, 0x01, 0x02, 0x68, 0x69]
            let flag: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x01, 0x01]
            let packet = try Rtm_DataPacket(serializedBytes: string + flag)
            #expect(packet.value == .keepalive(true))
        }
    }
}
