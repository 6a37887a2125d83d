// The differential's fourth party: SwiftProtobuf 1.38.1 through the adapter `wireproof prove` uses
// (SwiftProtobufCodec, copied with protoc-gen-swift's code into the SwiftProtobufSchema target by
// `wireproof swiftprotobuf-peer generate`). `wireproof prove --fuzz-seconds` (FuzzPackage) replaces this file with one that
// sets `swiftProtobufParty` to nil when prove's SwiftProtobuf peer is off for the schema.

import FacadeProof
import SwiftProtobufSchema

/// SwiftProtobuf as a `PeerCodec`: its re-encoding, or the name of the error that refused the bytes.
let swiftProtobufParty: PeerCodec? = PeerCodec(name: SwiftProtobufCodec.name) { messageType, bytes in
    switch SwiftProtobufCodec.decodeReencode(messageType, bytes) {
    case nil: return nil
    case .success(let reencoded)?: return .accepted(reencoded)
    case .failure(let rejection)?: return .rejected(rejection.reason)
    }
}
