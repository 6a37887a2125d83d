import FacadeProof
import Foundation
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

/// How a peer codec (SwiftProtobuf in `wireproof prove`) is judged next to the facades and the
/// oracle: the same bytes are "same", a difference is explained only by a named row, anything else
/// fails. The facades and peers here are stand-ins built on the oracle, so each test controls
/// exactly one side's behaviour.
@Suite struct PeerProofTests {
    static let schemas: SchemaSet = {
        do {
            return try InlineSchema.compile([
                "pp/two.proto": """
                syntax = "proto2";
                package pp;
                message Two { required int32 id = 1; optional string name = 2; map<fixed64, float> loss = 3; }
                """,
            ])
        } catch {
            fatalError("inline schema: \(error)")
        }
    }()
    static var two: MessageSchema { schemas.message("pp.Two")! }

    /// A codec that reads and writes exactly as the oracle does (unknown fields kept).
    static func oracleRoundTrip(_ bytes: [UInt8]) throws -> [UInt8] {
        try DynamicMessage(serializedBytes: bytes, schema: two, in: schemas).serializedBytes()
    }
    /// Facades that behave like the oracle.
    static let facade = FacadeMessageType("pp.Two") { try oracleRoundTrip($0) }
    /// A peer that behaves like the oracle except where `refuse` names a reason for an input.
    static func peer(refusing refuse: @escaping @Sendable ([UInt8]) -> String? = { _ in nil }) -> PeerCodec {
        PeerCodec(name: "test peer") { type, bytes in
            guard type == "pp.Two" else { return nil }
            if let reason = refuse(bytes) { return .rejected(reason) }
            guard let again = try? oracleRoundTrip(bytes) else { return .rejected("malformedProtobuf") }
            return .accepted(again)
        }
    }
    static func judge(_ input: [UInt8], _ peer: PeerCodec) -> PeerProof.Judgement {
        PeerProof.judgeMutant(input, facade, schema: two, schemas: schemas, peer: peer)
    }

    /// id = 1, name = "ab".
    static let valid: [UInt8] = [0x08, 0x01, 0x12, 0x02, 0x61, 0x62]

    @Test func aPeerThatReadsLikeTheOracleIsTheSameAsTheFacades() {
        #expect(Self.judge(Self.valid, Self.peer()) == .same)
    }

    @Test func aPeerRefusingWhatTheOracleAcceptsFailsWhenNoRowNamesTheCase() {
        guard case .failed(let why) = Self.judge(Self.valid, Self.peer { _ in "malformedProtobuf" }) else {
            Issue.record("a peer refusing a valid message was not a failure"); return
        }
        #expect(why.contains("rejects (malformedProtobuf), the oracle accepts"))
    }

    @Test func aPeerWithoutTheTypeFails() {
        let input = Self.valid
        guard case .failed = PeerProof.judgeMutant(input, FacadeMessageType("pp.Other") { $0 }, schema: Self.two,
                                                   schemas: Self.schemas, peer: Self.peer()) else {
            Issue.record("a peer that does not know the type was not a failure"); return
        }
    }

    @Test func aMissingRequiredFieldRefusedByThePeerIsRowS1() {
        let noId: [UInt8] = [0x12, 0x02, 0x61, 0x62]
        #expect(Self.judge(noId, Self.peer { _ in "missingRequiredFields" }) == .explained(["S1"]))
        // The same refusal of a message that has its required field is no row's business.
        guard case .failed = Self.judge(Self.valid, Self.peer { _ in "missingRequiredFields" }) else {
            Issue.record("a missingRequiredFields refusal of a complete message was explained"); return
        }
    }

    @Test func invalidUTF8InAProto2StringRefusedByThePeerIsRowS2() {
        let badText: [UInt8] = [0x08, 0x01, 0x12, 0x02, 0x61, 0xC3]
        #expect(Self.judge(badText, Self.peer { _ in "invalidUTF8" }) == .explained(["S2"]))
        guard case .failed = Self.judge(Self.valid, Self.peer { _ in "invalidUTF8" }) else {
            Issue.record("an invalidUTF8 refusal of valid text was explained"); return
        }
    }

    @Test func aTagAbove32BitsRefusedByThePeerIsRowS3() {
        // Tag fa ff ff ff 1f: 2^32 + 0xFFFFFFFA; its low 32 bits are field 536,870,911, wire type 2.
        let wideTag = Self.valid + [0xFA, 0xFF, 0xFF, 0xFF, 0x1F, 0x01, 0x61]
        let refuseWide: @Sendable ([UInt8]) -> String? = { $0.count > Self.valid.count ? "malformedProtobuf" : nil }
        #expect(Self.judge(wideTag, Self.peer(refusing: refuseWide)) == .explained(["S3"]))
        // The same field under its 32-bit tag: no row, so a refusal fails.
        let narrowTag = Self.valid + [0xFA, 0xFF, 0xFF, 0xFF, 0x0F, 0x01, 0x61]
        guard case .failed = Self.judge(narrowTag, Self.peer(refusing: refuseWide)) else {
            Issue.record("a refusal of a 32-bit tag was explained"); return
        }
    }

    @Test func aMapEntryFieldWithTheWrongWireTypeRefusedByThePeerIsRowS4() {
        // loss entry: key 1 as fixed32 (a fixed64 key), value 2 as fixed32.
        let entry: [UInt8] = [0x0D, 1, 0, 0, 0, 0x15, 0, 0, 0x80, 0x3F]
        let input = Self.valid + [0x1A, UInt8(entry.count)] + entry
        let refuseMap: @Sendable ([UInt8]) -> String? = { $0.count > Self.valid.count ? "malformedProtobuf" : nil }
        #expect(Self.judge(input, Self.peer(refusing: refuseMap)) == .explained(["S4"]))
        // The same entry with its key as fixed64: well formed, so a refusal fails.
        let good: [UInt8] = [0x09, 1, 0, 0, 0, 0, 0, 0, 0, 0x15, 0, 0, 0x80, 0x3F]
        guard case .failed = Self.judge(Self.valid + [0x1A, UInt8(good.count)] + good, Self.peer(refusing: refuseMap)) else {
            Issue.record("a refusal of a well-formed map entry was explained"); return
        }
        // SwiftProtobuf reads the wrongly typed field's payload as the entry's next tags, so the
        // misread may end in another error, or in another key or value (found by fuzzing).
        let refuseTruncated: @Sendable ([UInt8]) -> String? = { $0.count > Self.valid.count ? "truncated" : nil }
        #expect(Self.judge(input, Self.peer(refusing: refuseTruncated)) == .explained(["S4"]))
        let dropsTheEntry = PeerCodec(name: "test peer") { _, bytes in .accepted(bytes == input ? Self.valid : bytes) }
        #expect(Self.judge(input, dropsTheEntry) == .explained(["S4"]))
        guard case .failed = Self.judge(Self.valid + [0x1A, UInt8(good.count)] + good, PeerCodec(name: "test peer") { _, _ in .accepted(Self.valid) }) else {
            Issue.record("another meaning of a well-formed map entry was explained"); return
        }
    }

    @Test func aLengthPrefixLongerThanFiveBytesAcceptedByThePeerIsRowS5() {
        // name = "ab" under a 6-byte length prefix (82 80 80 80 80 00 = 2): the oracle and the
        // stand-in facades refuse it; a peer reading it as "ab" is row S5.
        let padded: [UInt8] = [0x08, 0x01, 0x12, 0x82, 0x80, 0x80, 0x80, 0x80, 0x00, 0x61, 0x62]
        let readsPadding = PeerCodec(name: "test peer") { _, bytes in .accepted(bytes == padded ? Self.valid : bytes) }
        #expect(Self.judge(padded, readsPadding) == .explained(["S5"]))
        // Accepting a message cut short is no row's business.
        guard case .failed = Self.judge(Array(Self.valid.dropLast()), readsPadding) else {
            Issue.record("a peer accepting a truncated message was explained"); return
        }
    }

    @Test func aPeerThatChangesTheMeaningFails() {
        let peer = PeerCodec(name: "test peer") { _, _ in .accepted([0x08, 0x02]) }
        guard case .failed(let why) = Self.judge(Self.valid, peer) else {
            Issue.record("a peer writing another message was not a failure"); return
        }
        #expect(why.contains("means something else"))
    }

    @Test func anExemplarThePeerReEncodesOtherwiseThanTheOracleFails() throws {
        let exemplar = try #require(Exemplars(schemas: Self.schemas).all(for: Self.two).first)
        let canonical = exemplar.message.serializedBytes()
        #expect(PeerProof.judgeExemplar(canonical, oracle: exemplar, messageType: "pp.Two", peer: Self.peer()) == .same)
        let appending = PeerCodec(name: "test peer") { _, bytes in .accepted(bytes + [0x08, 0x01]) }
        guard case .failed = PeerProof.judgeExemplar(canonical, oracle: exemplar, messageType: "pp.Two", peer: appending) else {
            Issue.record("a peer re-encoding the exemplar differently was not a failure"); return
        }
    }
}
