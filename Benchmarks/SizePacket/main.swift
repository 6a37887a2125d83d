// Size probe (`make bench`): a program that builds a typical Rtm_DataPacket (a chat message),
// encodes it, decodes it and reads it back through the facades. Compared, dead-stripped and
// stripped, with SizeBaseline (the same trivial work without protobuf), the difference is what the
// shipped layer (nanopb runtime, generated C, NanopbRuntime, facades) adds to a binary.
// make bench also builds this source against facades pruned to the types it spells (SizePacketPruned).
import BundledProto

let arguments = CommandLine.arguments
let text = arguments.count > 1 ? arguments[1] : "see you at the standup"
let packet = Rtm_DataPacket.with {
    $0.kind = .reliable
    $0.senderIdentity = "participant-1"
    $0.sequence = UInt32(truncatingIfNeeded: arguments.count)
    $0.value = .chat(.with {
        $0.id = "msg-1"
        $0.text = text
        $0.sentAt = .with { $0.seconds = 1_718_000_000 }
    })
}
do {
    let bytes: [UInt8] = try packet.serializedBytes()  // the annotation SwiftProtobuf needs (its result is generic)
    let back = try Rtm_DataPacket(serializedBytes: bytes)
    print(bytes.count, back.sequence, back.chat.text.count)
} catch {
    print("error: \(error)")
}
