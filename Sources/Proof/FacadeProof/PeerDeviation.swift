// Where SwiftProtobuf 1.38.1 (the peer of `wireproof prove`) deliberately reads bytes otherwise
// than the oracle and Google's parser: the rows of docs/deviations.md, "SwiftProtobuf" section
// (ids S1, S2, ...). Each is a predicate over the input, its features or the oracle's result plus
// the peer's typed error name; a peer/oracle difference none of them describes fails the proof.

import ProtoOracle
import ProtoSchema

public enum PeerDeviation {
    /// Rows under which the peer may reject what the oracle accepts.
    public static func mayReject(reason: String, input: [UInt8], features: WireFeatures, initialized: Bool,
                                 schema: MessageSchema) -> Set<String> {
        var rows: Set<String> = []
        // S1: a proto2 message missing a required field: SwiftProtobuf's default (non-partial)
        // decode throws as Google's ParseFromString does; the oracle parses partially (as row 19).
        if reason == "missingRequiredFields" && !initialized { rows.insert("S1") }
        // S2: SwiftProtobuf checks UTF-8 in every string field, proto2 ones included; Google's
        // parsers and the oracle check proto3 strings only (a proto3 one is rejected by all three).
        if reason == "invalidUTF8" && features.invalidUTF8InString { rows.insert("S2") }
        // S3: a tag whose 5-byte varint is 2^32 or more: SwiftProtobuf refuses it as malformed;
        // Google's parsers, the oracle and the facades keep its low 32 bits.
        if reason == "malformedProtobuf" && features.tagAbove32Bits { rows.insert("S3") }
        // S4: a map entry's key or value with the wrong wire type: SwiftProtobuf refuses the
        // message as malformed; Google's parsers and the oracle keep it as an unknown field of the
        // entry (the facades refuse it too: row 14).
        if reason == "malformedProtobuf" && features.wrongWireTypeInMapEntry { rows.insert("S4") }
        return rows
    }

    /// Rows under which the peer may accept what the oracle rejects.
    public static func mayAccept(rejectedBy error: OracleDecodeError, features: WireFeatures) -> Set<String> {
        []
    }
}
