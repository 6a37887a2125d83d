// Typical SwiftProtobuf calls that compile unchanged against the facades (docs/swiftprotobuf.md,
// "Moving from SwiftProtobuf"). This one file is compiled twice:
//   - here, against the facades (MigrationSampleTests checks its transcript);
//   - by `wireproof swiftprotobuf-peer migration-sample` (make migration-sample), against protoc-gen-swift's code for
//     the same schema, with only the import line swapped; that run checks the same transcript.
// Keep it to calls both sides spell the same way; what differs goes into the doc's table instead.
// The transcript avoids what the two codecs legitimately write differently (map entry order,
// packing): it prints values read back, sizes where both agree, and accept/reject verdicts.
import BundledProto

/// What a port's everyday calls read back, one line per observation, in a fixed order.
func movingFromSwiftProtobufTranscript() -> [String] {
    var lines: [String] = []

    // Build with `.with`, a oneof case, a nested message, a repeated field, bytes from a literal.
    let packet = Rtm_DataPacket.with {
        $0.kind = .lossy
        $0.senderIdentity = "participant-1"
        $0.destinationIdentities = ["participant-2", "participant-3"]
        $0.sequence = 42
        $0.value = .chat(.with {
            $0.id = "msg-1"
            $0.text = "see you at the standup"
            $0.sentAt = .with { $0.seconds = 1_718_000_000; $0.nanos = 5 }
            $0.mentions = ["participant-2"]
        })
        // Data on one side, [UInt8] on the other; `.init(bytes)` compiles against both (a bare array
        // literal does not: this Foundation's Data is not ExpressibleByArrayLiteral).
        $0.padding = .init([0, 1, 255] as [UInt8])
    }

    // Encode, decode, read back.
    do {
        let bytes: [UInt8] = try packet.serializedBytes()  // annotated: SwiftProtobuf's result is generic
        lines.append("DataPacket bytes: \(bytes.count) \(hex(bytes))")
        let back = try Rtm_DataPacket(serializedBytes: bytes)
        lines.append("equal after a round trip: \(back == packet)")
        lines.append("kind lossy: \(back.kind == .lossy), reliable: \(back.kind == .reliable)")
        lines.append("sender: \(back.senderIdentity); to: \(back.destinationIdentities.joined(separator: ","))")
        lines.append("sequence: \(back.sequence)")
        switch back.value {
        case .chat(let chat)?:
            lines.append("chat \(chat.id): \(chat.text) at \(chat.sentAt.seconds).\(chat.sentAt.nanos); mentions \(chat.mentions)")
            lines.append("chat has sentAt: \(chat.hasSentAt), has editedAt: \(chat.hasEditedAt), editedAt seconds: \(chat.editedAt.seconds)")
        case nil:
            lines.append("no value")
        default:
            lines.append("another value")
        }
        lines.append("chat through the oneof accessor: \(back.chat.text)")
        lines.append("transcription (another case, unset): \(back.transcription.segments.count) segments")
        lines.append("padding: \(Array(back.padding))")
    } catch {
        lines.append("DataPacket failed: \(error)")
    }

    // A map, an explicit-presence scalar, a oneof holding a message with an enum and a repeated field.
    let header = Rtm_StreamHeader.with {
        $0.streamID = "stream-7"
        $0.attributes = ["b": "2", "a": "1"]
        $0.totalLength = 0  // explicit presence: set to zero is still set
        $0.content = .text(.with {
            $0.operation = .update
            $0.version = -3
            $0.attachedStreamIds = ["s1", "s2"]
        })
    }
    do {
        let bytes: [UInt8] = try header.serializedBytes()
        lines.append("StreamHeader bytes: \(bytes.count)")  // not the bytes: map entry order may differ
        let back = try Rtm_StreamHeader(serializedBytes: bytes)
        lines.append("attributes: \(back.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })")
        lines.append("has totalLength: \(back.hasTotalLength) (\(back.totalLength)), has createdAt: \(back.hasCreatedAt)")
        if case .text(let text)? = back.content {
            lines.append("text header: update \(text.operation == .update), version \(text.version), attached \(text.attachedStreamIds)")
        } else {
            lines.append("text header missing")
        }
        let cleared = Rtm_StreamHeader.with { $0.totalLength = 9; $0.clearTotalLength() }
        lines.append("cleared totalLength: has \(cleared.hasTotalLength)")
    } catch {
        lines.append("StreamHeader failed: \(error)")
    }

    // Hostile bytes: both sides refuse; the error types differ, so only the verdict is printed.
    let hostile: [[UInt8]] = [
        [0x32, 0x05, 0x0A],        // field 6 (chat) claims 5 bytes, 1 follows
        [0x20, 0xFF, 0xFF, 0xFF],  // field 4 (sequence): a varint that never ends
        [0x07],                    // wire type 7 does not exist
    ]
    for input in hostile {
        do {
            _ = try Rtm_DataPacket(serializedBytes: input)
            lines.append("\(hex(input)): accepted")
        } catch {
            lines.append("\(hex(input)): refused")
        }
    }
    return lines
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }.joined()
}
