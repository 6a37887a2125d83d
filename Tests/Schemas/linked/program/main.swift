// Two schemas in one program: Alpha and Beta share the well-known types and linked/common.proto
// through one module (Shared), so a Timestamp or Tag taken from an Alpha message is the very type
// a Beta builder wants. Linking this program fails if both C targets defined the shared symbols
// (`multiple definition of google_protobuf_Timestamp_msg`). It prints each message's encoding in
// hex; `wireproof link-check` compares them with `protoc --encode` of the same values.
import Alpha
import Foundation
import Beta
import Shared

let at = Google_Protobuf_Timestamp.with { $0.seconds = 1_700_000_000; $0.nanos = 5 }
let tag = Linked_Common_Tag.with { $0.label = "shared"; $0.weight = 3 }
let event = Linked_Alpha_Event.with { $0.name = "start"; $0.at = at; $0.tag = tag }
let record = Linked_Beta_Record.with {
    $0.at = event.at
    $0.tag = event.tag
    $0.took = Google_Protobuf_Duration.with { $0.seconds = 2 }
    $0.values = [1, -1, 300]
}

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

do {
    let eventBytes = try event.serializedBytes()
    let recordBytes = try record.serializedBytes()
    // Each decodes back to what was built, through its own schema's decoder.
    guard try Linked_Alpha_Event(serializedBytes: eventBytes) == event,
          try Linked_Beta_Record(serializedBytes: recordBytes) == record else {
        print("linked: a message did not survive its round trip")
        exit(1)
    }
    print("alpha.Event \(hex(eventBytes))")
    print("beta.Record \(hex(recordBytes))")
} catch {
    print("linked: \(error)")
    exit(1)
}
