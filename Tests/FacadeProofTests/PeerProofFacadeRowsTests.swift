import Foundation
import OracleCheck
@testable import FacadeProof
import ProtoOracle
import ProtoSchema
import Testing

/// The rows of docs/deviations.md `PeerProof` counts when the facades differ from the oracle: one
/// row per wire feature, row 9 for an oracle refusal of invalid UTF-8, row 19 for a message the
/// oracle reads without its required fields; nothing else.
@Suite struct PeerProofFacadeRowsTests {
    static let schemas: SchemaSet = {
        do {
            return try InlineSchema.compile([
                "fr/one.proto": "syntax = \"proto2\"; package fr; message One { required int32 n = 1; }",
            ])
        } catch {
            fatalError("inline schema: \(error)")
        }
    }()
    static let complete: Result<DynamicMessage, OracleDecodeError> = Result {
        try DynamicMessage(serializedBytes: [0x08, 0x01], schema: schemas.message("fr.One")!, in: schemas)
    }.mapError { $0 as! OracleDecodeError }

    static var rowByFeature: [(WritableKeyPath<WireFeatures, Bool>, String)] { [
        (\.duplicateSingularMessage, "3/4"), (\.nulInString, "8"), (\.unknownClosedEnumValue, "12"),
        (\.narrowVarintOverflow, "7/13/18"), (\.overwideVarint, "17"), (\.wrongWireType, "14"), (\.overlongLength, "16"),
    ] }

    @Test func eachWireFeatureNamesItsOwnRow() {
        #expect(PeerProof.facadeRows(WireFeatures(), oracle: Self.complete).isEmpty)
        for (feature, row) in Self.rowByFeature {
            var features = WireFeatures()
            features[keyPath: feature] = true
            #expect(PeerProof.facadeRows(features, oracle: Self.complete) == [row], "\(row)")
        }
        var all = WireFeatures()
        for (feature, _) in Self.rowByFeature { all[keyPath: feature] = true }
        #expect(PeerProof.facadeRows(all, oracle: Self.complete) == Set(Self.rowByFeature.map(\.1)))
        // Features no facade row names count for nothing.
        var other = WireFeatures()
        other.invalidUTF8InString = true; other.tagAbove32Bits = true; other.truncated = true
        #expect(PeerProof.facadeRows(other, oracle: Self.complete).isEmpty)
    }

    @Test func theOraclesVerdictNamesRow9ForInvalidUTF8AndRow19ForAMissingRequiredField() throws {
        let invalidUTF8 = Result<DynamicMessage, OracleDecodeError>.failure(OracleDecodeError(.invalidUTF8, at: 2))
        #expect(PeerProof.facadeRows(WireFeatures(), oracle: invalidUTF8) == ["9"])
        let truncated = Result<DynamicMessage, OracleDecodeError>.failure(OracleDecodeError(.truncatedVarint, at: 0))
        #expect(PeerProof.facadeRows(WireFeatures(), oracle: truncated).isEmpty)
        let incomplete = Result<DynamicMessage, OracleDecodeError>.success(
            try DynamicMessage(serializedBytes: [], schema: try #require(Self.schemas.message("fr.One")), in: Self.schemas))
        #expect(PeerProof.facadeRows(WireFeatures(), oracle: incomplete) == ["19"])
        var overwide = WireFeatures()
        overwide.overwideVarint = true
        #expect(PeerProof.facadeRows(overwide, oracle: incomplete) == ["17", "19"])
    }
}
