// Repeated numbers: decoders accept packed and unpacked alike; nanopb always writes packed.

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct PackedRepeatedTests {
    @Test func packedAndUnpackedEncodingsDecodeToTheSameFacadeValue() async throws {
        let oracle = try await Oracle.bundled()
        let packed: [UInt8] = [0x32, 0x03, 96, 97, 111]                    // Codec.payload_types
        let unpacked: [UInt8] = [0x30, 96, 0x30, 97, 0x30, 111]
        let mixed: [UInt8] = [0x30, 96, 0x32, 0x02, 97, 111]
        let facades = try [packed, unpacked, mixed].map { try Rtm_Codec(serializedBytes: $0) }
        for facade in facades {
            #expect(facade.payloadTypes == [96, 97, 111])
            #expect(facade == facades[0])
            #expect(try facade.serializedBytes() == packed)
        }

        let decoded = try [packed, unpacked, mixed].map { try oracle.decode($0, as: "rtm.Codec") }
        #expect(decoded.allSatisfy { $0 == decoded[0] })
        #expect(decoded[0].repeated(number: 6) == [.uint32(96), .uint32(97), .uint32(111)])
        #expect(decoded[1].serializedBytes() == packed)
    }

    @Test func aFieldDeclaredUnpackedIsWrittenPackedByTheFacade() async throws {
        // RtpStreamStats.loss_burst_lengths is `[packed = false]` (sint32).
        let oracle = try await Oracle.bundled()
        let unpacked: [UInt8] = [0x88, 0x01, 0x01, 0x88, 0x01, 0x02]       // field 17: -1, 1
        let packed: [UInt8] = [0x8A, 0x01, 0x02, 0x01, 0x02]
        let facade = Rtm_RtpStreamStats.with { $0.lossBurstLengths = [-1, 1] }
        #expect(try facade.serializedBytes() == packed)
        #expect(try Rtm_RtpStreamStats(serializedBytes: unpacked) == facade)

        var reference = try oracle.message("rtm.RtpStreamStats")
        reference.setRepeated(number: 17, [.int32(-1), .int32(1)])
        #expect(reference.serializedBytes() == unpacked)
        #expect(try oracle.decode(packed, as: "rtm.RtpStreamStats") == reference)  // same value
    }

    @Test func aProto2RepeatedNumberIsWrittenPackedByTheFacade() async throws {
        // LegacyJoinRequest.sample_rates: proto2 repeated numbers are unpacked unless declared.
        let oracle = try await Oracle.bundled()
        let required: [UInt8] = [0x0A, 0x01, 0x74, 0x10, 0x01]  // token "t", protocol_version 1
        let facade = Rtm_LegacyJoinRequest.with { $0.token = "t"; $0.protocolVersion = 1; $0.sampleRates = [8, 16] }
        #expect(try facade.serializedBytes() == required + [0x6A, 0x02, 8, 16])
        var reference = try oracle.decode(required, as: "rtm.LegacyJoinRequest")
        reference.setRepeated(number: 13, [.uint32(8), .uint32(16)])
        #expect(reference.serializedBytes() == required + [0x68, 8, 0x68, 16])
        #expect(try Rtm_LegacyJoinRequest(serializedBytes: reference.serializedBytes()) == facade)
    }
}
