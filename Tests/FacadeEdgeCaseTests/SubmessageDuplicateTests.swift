// A message field that occurs twice: the specification merges the second occurrence into the
// first; nanopb releases the first and decodes the second fresh (pb_decode.c, decode_pointer_field:
// "Duplicate field, have to release the old allocation first"). Each test shows both results.

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct SubmessageDuplicateTests {
    @Test func aDuplicateSingularSubmessageReplacesTheFirstWhereTheSpecificationMerges() async throws {
        let oracle = try await Oracle.bundled()
        let first = Rtm_ChatMessage.with {
            $0.id = "m1"
            $0.sentAt = .with { $0.seconds = 100 }
            $0.text = "hi"
        }
        let second = Rtm_ChatMessage.with { $0.sentAt = .with { $0.nanos = 5 } }
        let joined = try first.serializedBytes() + second.serializedBytes()

        // Facade (nanopb): the second Timestamp replaced the first; `seconds` is gone.
        let facade = try Rtm_ChatMessage(serializedBytes: joined)
        #expect(facade.sentAt.seconds == 0 && facade.sentAt.nanos == 5)
        #expect(facade.id == "m1" && facade.text == "hi")
        #expect(facade == first.modifying { $0.sentAt = .with { $0.nanos = 5 } })

        // Oracle (specification): the two Timestamps merged field by field.
        let merged = try oracle.decode(joined, as: "rtm.ChatMessage")
        let sentAt = try #require(merged[number: 2]?.messageValue)
        #expect(sentAt[number: 1] == .int64(100) && sentAt[number: 2] == .int32(5))
        let specified = first.modifying { $0.sentAt = .with { $0.seconds = 100; $0.nanos = 5 } }
        #expect(merged == (try oracle.decode(specified.serializedBytes(), as: "rtm.ChatMessage")))

        // The difference, as the oracle sees the facade's re-encoding.
        #expect(try oracle.decode(facade.serializedBytes(), as: "rtm.ChatMessage") != merged)
    }

    @Test func aDuplicateOneofSubmessageMemberReplacesTheFirstWhereTheSpecificationMerges() async throws {
        let oracle = try await Oracle.bundled()
        let first = Rtm_DataPacket.with {
            $0.sequence = 1
            $0.chat = .with { $0.id = "m1"; $0.text = "hi" }
        }
        let second = Rtm_DataPacket.with { $0.chat = .with { $0.deleted = true } }
        let joined = try first.serializedBytes() + second.serializedBytes()

        // Facade: the same member again, so nanopb keeps the union (same tag: "merge") but then
        // releases the submessage as a duplicate before decoding the second one.
        let facade = try Rtm_DataPacket(serializedBytes: joined)
        #expect(facade.value == .chat(.with { $0.deleted = true }))
        #expect(facade.chat.id == "" && facade.chat.text == "" && facade.chat.deleted)
        #expect(facade.sequence == 1)

        // Oracle: one ChatMessage holding the fields of both.
        let merged = try oracle.decode(joined, as: "rtm.DataPacket")
        let chat = try #require(merged[number: 6]?.messageValue)
        #expect(chat[number: 1] == .text("m1") && chat[number: 4] == .text("hi") && chat[number: 5] == .bool(true))
        let specified = first.modifying { $0.chat = .with { $0.id = "m1"; $0.text = "hi"; $0.deleted = true } }
        #expect(merged == (try oracle.decode(specified.serializedBytes(), as: "rtm.DataPacket")))
        #expect(try oracle.decode(facade.serializedBytes(), as: "rtm.DataPacket") != merged)
    }

    @Test func aDifferentOneofMemberReplacesTheFirstInBoth() async throws {
        // Not a deviation: a oneof keeps only its last member under either rule.
        let oracle = try await Oracle.bundled()
        let joined = try Rtm_DataPacket.with { $0.chat = .with { $0.text = "hi" } }.serializedBytes()
            + Rtm_DataPacket.with { $0.reaction = .with { $0.emoji = "+1" } }.serializedBytes()
        let facade = try Rtm_DataPacket(serializedBytes: joined)
        #expect(facade.value == .reaction(.with { $0.emoji = "+1" }))
        let merged = try oracle.decode(joined, as: "rtm.DataPacket")
        #expect(!merged.has(number: 6) && merged.has(number: 16))
        #expect(merged == (try oracle.decode(facade.serializedBytes(), as: "rtm.DataPacket")))
    }
}
