// Concatenation is merge: bytes stamped onto an encoded message by appending a message that carries
// only the new field. Each case is read back through the facade and through the oracle.

import Testing
import TestSupport
import NanopbRuntime
import BundledProto
import ProtoOracle

/// One singular field stamped onto `ConcatenationMergeTests.base`.
struct ScalarStamp: Sendable, CustomTestStringConvertible {
    let field: String
    let number: Int32
    /// Sets the field on a builder (the patch, and the expected message built directly).
    let set: @Sendable (inout Rtm_DataPacket.Builder) -> Void
    /// The value the oracle must read after the merge.
    let oracleValue: ProtoValue
    var testDescription: String { field }
}

@Suite struct ConcatenationMergeTests {
    static let base = Rtm_DataPacket.with {
        $0.kind = .lossy
        $0.senderIdentity = "alice"
        $0.destinationIdentities = ["bob", "carol"]
        $0.sequence = 1
        $0.value = .chat(.with { $0.id = "m1"; $0.text = "hi" })
        $0.padding = [1, 2, 3]
    }

    static let stamps: [ScalarStamp] = [
        ScalarStamp(field: "sequence (uint32)", number: 4, set: { $0.sequence = 42 }, oracleValue: .uint32(42)),
        ScalarStamp(field: "sender_identity (string)", number: 2, set: { $0.senderIdentity = "server" }, oracleValue: .text("server")),
        ScalarStamp(field: "kind (enum)", number: 1, set: { $0.kind = Rtm_DataPacket_Kind(rawValue: 9) }, oracleValue: .enumValue(9)),
        ScalarStamp(field: "padding (bytes, field 536870911)", number: 536_870_911, set: { $0.padding = [9] }, oracleValue: .bytes([9])),
    ]

    @Test(arguments: stamps)
    func appendingASingularScalarOverwritesItAndLeavesTheRestUntouched(_ stamp: ScalarStamp) async throws {
        let oracle = try await Oracle.bundled()
        let encoded = try Self.base.serializedBytes()
        let patch = Rtm_DataPacket.with(stamp.set)
        let stamped = try Rtm_DataPacket.stamping(encoded, with: patch)
        #expect(stamped == encoded + (try patch.serializedBytes()))

        // Facade: the field took the patch's value, every other field kept the base's.
        let expected = Self.base.modifying(stamp.set)
        let facade = try Rtm_DataPacket(serializedBytes: stamped)
        #expect(facade == expected)
        #expect(try facade.serializedBytes() == expected.serializedBytes())
        #expect(facade.destinationIdentities == ["bob", "carol"] && facade.chat.text == "hi")

        // Oracle: the base with exactly that one field replaced.
        var want = try oracle.decode(encoded, as: "rtm.DataPacket")
        want[number: stamp.number] = stamp.oracleValue
        let merged = try oracle.decode(stamped, as: "rtm.DataPacket")
        #expect(merged == want)
        #expect(merged == (try oracle.decode(expected.serializedBytes(), as: "rtm.DataPacket")))
    }

    @Test func aStampedSequenceEqualsAPacketBuiltWithThatSequence() async throws {
        let oracle = try await Oracle.bundled()
        for sequence: UInt32 in [7, 300, .max] {
            let encoded = try Self.base.serializedBytes()
            let stamped = try Rtm_DataPacket.stamping(encoded) { $0.sequence = sequence }
            let built = Self.base.modifying { $0.sequence = sequence }

            let facade = try Rtm_DataPacket(serializedBytes: stamped)
            #expect(facade.sequence == sequence)
            #expect(facade == built)
            #expect(try facade.serializedBytes() == built.serializedBytes())

            #expect(try oracle.decode(stamped, as: "rtm.DataPacket") == oracle.decode(built.serializedBytes(), as: "rtm.DataPacket"))
            #expect(try oracle.decode(stamped, as: "rtm.DataPacket")[number: 4] == .uint32(sequence))
        }
    }

    @Test func stampingAPacketThatHadNoSequenceSetsIt() async throws {
        let oracle = try await Oracle.bundled()
        let unsequenced = Self.base.modifying { $0.sequence = 0 }
        let stamped = try Rtm_DataPacket.stamping(unsequenced.serializedBytes()) { $0.sequence = 5 }
        #expect(try Rtm_DataPacket(serializedBytes: stamped) == Self.base.modifying { $0.sequence = 5 })
        #expect(try oracle.decode(stamped, as: "rtm.DataPacket")[number: 4] == .uint32(5))
    }

    @Test func repeatedFieldsAppendTheStampedElements() async throws {
        let oracle = try await Oracle.bundled()
        // Repeated strings (never packed).
        let names = try Rtm_DataPacket.stamping(Self.base.serializedBytes()) { $0.destinationIdentities = ["dave"] }
        #expect(try Rtm_DataPacket(serializedBytes: names).destinationIdentities == ["bob", "carol", "dave"])
        #expect(try oracle.decode(names, as: "rtm.DataPacket").repeated(number: 3) == [.text("bob"), .text("carol"), .text("dave")])

        // Packed numbers: two packed runs of the same field concatenate.
        let codec = Rtm_Codec.with { $0.mimeType = "audio/opus"; $0.payloadTypes = [96, 97] }
        let types = try Rtm_Codec.stamping(codec.serializedBytes()) { $0.payloadTypes = [111] }
        let facade = try Rtm_Codec(serializedBytes: types)
        #expect(facade.payloadTypes == [96, 97, 111] && facade.mimeType == "audio/opus")
        #expect(try oracle.decode(types, as: "rtm.Codec").repeated(number: 6) == [.uint32(96), .uint32(97), .uint32(111)])
    }

    @Test func stampingAZeroOfAFieldWithoutPresenceChangesNothing() async throws {
        let oracle = try await Oracle.bundled()
        let encoded = try Self.base.serializedBytes()
        // The builder stores 0 as absent, so the patch encodes to nothing.
        let stamped = try Rtm_DataPacket.stamping(encoded) { $0.sequence = 0 }
        #expect(stamped == encoded)
        #expect(try Rtm_DataPacket(serializedBytes: stamped).sequence == 1)
        #expect(try oracle.decode(stamped, as: "rtm.DataPacket")[number: 4] == .uint32(1))
    }

    @Test func stampingAScalarOneofMemberReplacesTheActiveMember() async throws {
        let oracle = try await Oracle.bundled()
        let stamped = try Rtm_DataPacket.stamping(Self.base.serializedBytes()) { $0.ackUntil = 5 }
        let facade = try Rtm_DataPacket(serializedBytes: stamped)
        #expect(facade.value == .ackUntil(5))
        #expect(facade == Self.base.modifying { $0.ackUntil = 5 })
        let merged = try oracle.decode(stamped, as: "rtm.DataPacket")
        #expect(!merged.has(number: 6))
        #expect(merged[number: 33_554_431] == .uint32(5))
        #expect(merged[number: 4] == .uint32(1))
    }

    @Test func stampingAMessageWithAMissingRequiredFieldThrows() {
        expectBalancedAllocations {
            // proto2: the patch must be encodable on its own.
            #expect(throws: NanopbError.encodeFailed(reason: .missingRequiredField)) {
                try Rtm_LegacyJoinRequest.stamping([]) { $0.clientName = "x" }
            }
        }
    }
}
