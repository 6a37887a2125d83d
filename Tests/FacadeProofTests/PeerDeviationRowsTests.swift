@testable import FacadeProof
import OracleCheck
import ProtoOracle
import Testing

/// Which SwiftProtobuf rows of docs/deviations.md explain the peer accepting what the oracle
/// refuses: a row needs its own feature of the input and, where it names one, the oracle's own
/// reason for refusing; the feature alone, beside another refusal, explains nothing.
@Suite struct PeerDeviationRowsTests {
    static func features(_ change: (inout WireFeatures) -> Void) -> WireFeatures {
        var features = WireFeatures()
        change(&features)
        return features
    }

    @Test func anOverlongLengthExplainsTheAcceptanceOnlyWhenItIsWhatTheOracleRefused() {
        let overlong = Self.features { $0.overlongLength = true }
        #expect(PeerDeviation.mayAccept(rejectedBy: OracleDecodeError(.overlongLength, at: 1), features: overlong) == ["S5"])
        #expect(PeerDeviation.mayAccept(rejectedBy: OracleDecodeError(.truncatedVarint, at: 3), features: overlong).isEmpty,
                "the same input also ends in a truncated varint, which is what the oracle refused")
        #expect(PeerDeviation.mayAccept(rejectedBy: OracleDecodeError(.overlongLength, at: 1), features: WireFeatures()).isEmpty)
    }

    @Test func aMisreadMapEntryExplainsAnAcceptanceWhateverTheOracleRefused() {
        let misread = Self.features { $0.wrongWireTypeInMapEntry = true }
        #expect(PeerDeviation.mayAccept(rejectedBy: OracleDecodeError(.truncatedVarint, at: 3), features: misread) == ["S4"])
        #expect(PeerDeviation.mayMeanOtherwise(features: misread) == ["S4"])
        #expect(PeerDeviation.mayMeanOtherwise(features: Self.features { $0.overlongLength = true }).isEmpty)
    }

    @Test func aMisreadMapEntryExplainsARefusalOnlyUnderTheErrorsAMisreadMeets() throws {
        let schemas = try InlineSchema.compile(["m.proto": "syntax = \"proto3\"; package m; message M { map<int32, int32> m = 1; }"])
        let schema = try #require(schemas.message("m.M"))
        let misread = Self.features { $0.wrongWireTypeInMapEntry = true }
        func rows(_ reason: String, _ features: WireFeatures) -> Set<String> {
            PeerDeviation.mayReject(reason: reason, input: [], features: features, initialized: true, schema: schema)
        }
        for reason in ["malformedProtobuf", "truncated", "trailingGarbage"] { #expect(rows(reason, misread) == ["S4"], "\(reason)") }
        #expect(rows("malformedProtobuf", WireFeatures()).isEmpty)
        #expect(rows("anErrorTheMisreadCannotMeet", misread).isEmpty)
    }
}
