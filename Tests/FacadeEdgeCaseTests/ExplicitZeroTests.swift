// Presence is the pointer (FT_POINTER): a proto3 implicit-presence field that arrives holding its
// zero value is allocated by nanopb's decoder, so the facade re-encodes it; the specification (and
// the oracle) treat zero as absent. Builders never store such a zero.

import Testing
import TestSupport
import NanopbRuntime
import BundledProto
import ProtoOracle

/// One implicit-presence field of `rtm.RtpStreamStats` sent explicitly with its zero value.
struct ExplicitZero: Sendable, CustomTestStringConvertible {
    let type: String
    let number: Int32
    let wire: [UInt8]
    var testDescription: String { type }
}

@Suite struct ExplicitZeroTests {
    static let zeros: [ExplicitZero] = [
        ExplicitZero(type: "fixed32", number: 1, wire: [0x0D, 0, 0, 0, 0]),
        ExplicitZero(type: "string", number: 2, wire: [0x12, 0x00]),
        ExplicitZero(type: "double", number: 3, wire: [0x19] + [UInt8](repeating: 0, count: 8)),
        ExplicitZero(type: "float", number: 4, wire: [0x25, 0, 0, 0, 0]),
        ExplicitZero(type: "int32", number: 5, wire: [0x28, 0x00]),
        ExplicitZero(type: "uint32", number: 7, wire: [0x38, 0x00]),
        ExplicitZero(type: "sint32", number: 9, wire: [0x48, 0x00]),
        ExplicitZero(type: "bool", number: 14, wire: [0x70, 0x00]),
        ExplicitZero(type: "bytes", number: 15, wire: [0x7A, 0x00]),
    ]

    @Test(arguments: zeros)
    func anExplicitZeroOnTheWireIsReEncodedWhileTheOracleOmitsIt(_ zero: ExplicitZero) async throws {
        let oracle = try await Oracle.bundled()
        let facade = try Rtm_RtpStreamStats(serializedBytes: zero.wire)
        #expect(try facade.serializedBytes() == zero.wire)
        // Equality compares encodings, so the decoded zero differs from the empty message.
        #expect(facade != Rtm_RtpStreamStats())

        let decoded = try oracle.decode(zero.wire, as: "rtm.RtpStreamStats")
        #expect(!decoded.has(number: zero.number))
        #expect(decoded.serializedBytes() == [])
        #expect(decoded == (try oracle.message("rtm.RtpStreamStats")))
    }

    @Test func anExplicitZeroReadsAsZero() throws {
        try expectBalancedAllocations { () throws in
            let facade = try Rtm_DataPacket(serializedBytes: [0x20, 0x00])  // sequence = 0
            #expect(facade.sequence == 0)
            #expect(try facade.serializedBytes() == [0x20, 0x00])
        }
    }

    @Test func theBuilderStoresAnImplicitPresenceZeroAsAbsent() async throws {
        let oracle = try await Oracle.bundled()
        let cleared = Rtm_DataPacket.with { $0.sequence = 5 }.modifying { $0.sequence = 0 }
        #expect(try cleared.serializedBytes() == [])
        #expect(Rtm_DataPacket.with { $0.sequence = 0 } == Rtm_DataPacket())
        // Deriving from a decoded explicit zero and setting the zero again clears it.
        let decoded = try Rtm_DataPacket(serializedBytes: [0x20, 0x00])
        #expect(try decoded.modifying { $0.sequence = 0 }.serializedBytes() == [])

        var packet = try oracle.message("rtm.DataPacket")
        packet[number: 4] = .uint32(0)
        #expect(!packet.has(number: 4) && packet.serializedBytes() == [])
    }

    @Test func aZeroOfAFieldWithExplicitPresenceIsEncodedByBoth() async throws {
        // proto3 `optional`: zero is a value, so both keep it (not a deviation).
        let oracle = try await Oracle.bundled()
        let topic = Rtm_Topic.with { $0.maxRateHz = 0 }
        #expect(topic.hasMaxRateHz)
        #expect(try topic.serializedBytes() == [0x18, 0x00])
        var reference = try oracle.message("rtm.Topic")
        reference[number: 3] = .uint32(0)
        #expect(reference.serializedBytes() == [0x18, 0x00])
        #expect(try oracle.decode([0x18, 0x00], as: "rtm.Topic") == reference)
    }
}
