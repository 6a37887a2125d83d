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
        // S4: a map entry's key or value with the wrong wire type: SwiftProtobuf does not skip it
        // but reads its payload as the entry's next tags, so the error is whichever the misread
        // meets (malformedProtobuf, truncated, ...); Google's parsers and the oracle keep it as an
        // unknown field of the entry (the facades refuse it: row 14).
        if s4Errors.contains(reason) && features.wrongWireTypeInMapEntry { rows.insert("S4") }
        return rows
    }

    /// Rows under which the peer may accept what the oracle rejects.
    public static func mayAccept(rejectedBy error: OracleDecodeError, features: WireFeatures) -> Set<String> {
        var rows: Set<String> = []
        // S4: the misread of a map entry field with the wrong wire type (above) can also read
        // bytes the oracle refuses as well-formed tags.
        if features.wrongWireTypeInMapEntry { rows.insert("S4") }
        // S5: a length prefix of 6 to 10 bytes: SwiftProtobuf reads it as any varint and accepts
        // the message, as the facades do (row 16); Google's parsers and the oracle read a length in
        // at most 5 bytes. Found by the differential fuzz target's SwiftProtobuf party on
        // Corpus/regressions/parser-difference-codec-6-byte-length-prefix.
        if error.reason == .overlongLength && features.overlongLength { rows.insert("S5") }
        return rows
    }

    /// Rows under which the peer may accept with another meaning than the oracle's.
    public static func mayMeanOtherwise(features: WireFeatures) -> Set<String> {
        // S4: the misread of a map entry field with the wrong wire type can yield another key or
        // value (`3a 06 10 18 08 10 12 00` in a map<uint64, string>: the oracle {16: ""},
        // SwiftProtobuf {0: ""}; found by the differential fuzz target).
        features.wrongWireTypeInMapEntry ? ["S4"] : []
    }

    /// SwiftProtobuf's errors (`BinaryDecodingError` cases) a misread map entry can end in.
    static let s4Errors: Set<String> = ["malformedProtobuf", "truncated", "trailingGarbage", "invalidUTF8", "missingRequiredFields"]
}
