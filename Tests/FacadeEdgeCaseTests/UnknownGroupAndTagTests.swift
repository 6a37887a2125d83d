// Unknown groups, long tags and long unknown varints through the facades (nanopb with patch 0001,
// patches/nanopb/0001-google-tags-and-unknown-groups.patch) and the oracle. Google's C++ parser
// decides each case the same way; the differential fuzz target checks that on every input.

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct UnknownGroupAndTagTests {
    /// Field 100 of rtm.Codec is not declared: `a3 06` opens group 100, `a4 06` closes it.
    static let open100: [UInt8] = [0xA3, 0x06]
    static let close100: [UInt8] = [0xA4, 0x06]
    static let codec: [UInt8] = [0x08, 0x01]  // codec = 1

    @Test func aWellFormedUnknownGroupIsSkippedByTheFacadeAndKeptByTheOracle() async throws {
        let oracle = try await Oracle.bundled()
        let wire = Self.codec + Self.open100 + [0x08, 0x05, 0x12, 0x01, 0x61] + Self.close100
        let decoded = try Rtm_Codec(serializedBytes: wire)
        #expect(try decoded.serializedBytes() == Self.codec)  // unknown fields are dropped (row 5)
        let reference = try oracle.decode(wire, as: "rtm.Codec")
        #expect(reference[number: 1] == .enumValue(1))
        #expect(reference.unknownFields.map(\.number) == [100])
    }

    @Test func nestedUnknownGroupsAreSkippedByBoth() async throws {
        let oracle = try await Oracle.bundled()
        // group 100 { group 101 { 1: 7 } 2: fixed32 } then codec = 1
        let wire = Self.open100 + [0xAB, 0x06, 0x08, 0x07, 0xAC, 0x06, 0x15, 1, 2, 3, 4] + Self.close100 + Self.codec
        #expect(try Rtm_Codec(serializedBytes: wire).serializedBytes() == Self.codec)
        #expect(try oracle.decode(wire, as: "rtm.Codec")[number: 1] == .enumValue(1))
    }

    @Test func malformedUnknownGroupsAreRejectedByBoth() async throws {
        let oracle = try await Oracle.bundled()
        let unterminated = Self.open100 + [0x08, 0x01]
        #expect(throws: NanopbError.decodeFailed(reason: .endOfStream, offset: 4)) {
            try Rtm_Codec(serializedBytes: unterminated)
        }
        #expect(try oracle.decodeError(unterminated, as: "rtm.Codec") == OracleDecodeError(.unterminatedGroup, at: 0))
        let mismatched = Self.open100 + [0xAC, 0x06]
        #expect(throws: NanopbError.decodeFailed(reason: .other("mismatched end group"), offset: 4)) {
            try Rtm_Codec(serializedBytes: mismatched)
        }
        #expect(try oracle.decodeError(mismatched, as: "rtm.Codec") == OracleDecodeError(.mismatchedEndGroup, at: 2))
        let stray = Self.close100
        #expect(throws: NanopbError.decodeFailed(reason: .invalidWireType, offset: 2)) {
            try Rtm_Codec(serializedBytes: stray)
        }
        #expect(try oracle.decodeError(stray, as: "rtm.Codec") == OracleDecodeError(.unexpectedEndGroup, at: 0))
    }

    @Test func unknownGroupsNestedDeeperThan100LevelsAreRejectedByBoth() async throws {
        let oracle = try await Oracle.bundled()
        func nested(_ levels: Int) -> [UInt8] {
            Array([[UInt8]](repeating: Self.open100, count: levels).joined()) +
                Array([[UInt8]](repeating: Self.close100, count: levels).joined())
        }
        #expect(try Rtm_Codec(serializedBytes: nested(100)).serializedBytes() == [])
        #expect(try oracle.decode(nested(100), as: "rtm.Codec").unknownFields.count == 1)
        #expect(throws: NanopbError.decodeFailed(reason: .other("groups nested too deep"), offset: 202)) {
            try Rtm_Codec(serializedBytes: nested(101))
        }
        #expect(try oracle.decodeError(nested(101), as: "rtm.Codec")?.reason == .nestingTooDeep)
    }

    @Test func anUnknownGroupDoesNotHideDeepNestingFromTheDepthLimit() throws {
        // rtm.Topic.children (field 2) nested 100,000 levels after an unknown group: nanopb now
        // decodes past the group, and the depth limit inside nanopb (patch 0100) must still hold.
        var nested: [UInt8] = []
        for _ in 0..<100_000 {
            var length: [UInt8] = []
            var n = nested.count
            repeat { length.append(UInt8(n & 0x7F) | (n >= 0x80 ? 0x80 : 0)); n >>= 7 } while n > 0
            nested = [0x12] + length + nested
        }
        let hostile = Self.open100 + [0x08, 0x01] + Self.close100 + nested
        do {
            _ = try Rtm_Topic(serializedBytes: hostile)
            Issue.record("decoded 100,000 nested levels")
        } catch {
            guard case .decodeFailed(let reason, _) = error else { Issue.record("\(error)"); return }
            #expect(reason == .nestingTooDeep(limit: 100))
        }
    }

    @Test func aFiveByteTagIsTruncatedTo32BitsByBoth() async throws {
        // 2^32 + 8: field 1 varint after truncation, as Google's parser reads it (docs/fuzzing.md, "The parsers' differences, decided").
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0x88, 0x80, 0x80, 0x80, 0x10, 0x01]
        #expect(try Rtm_Codec(serializedBytes: wire).serializedBytes() == Self.codec)
        #expect(try oracle.decode(wire, as: "rtm.Codec") == oracle.decode(Self.codec, as: "rtm.Codec"))
    }

    @Test func aTagLongerThanFiveBytesIsRejectedByBoth() async throws {
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01]
        #expect(throws: NanopbError.decodeFailed(reason: .other("tag too long"), offset: 5)) {
            try Rtm_Codec(serializedBytes: wire)
        }
        #expect(try oracle.decodeError(wire, as: "rtm.Codec") == OracleDecodeError(.overlongVarint, at: 0))
    }

    @Test func anUnknownVarintLongerThanTenBytesIsRejectedByBoth() async throws {
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0xA0, 0x06] + [UInt8](repeating: 0x80, count: 10) + [0x00]
        #expect(throws: NanopbError.decodeFailed(reason: .varintOverflow, offset: 12)) {
            try Rtm_Codec(serializedBytes: wire)
        }
        #expect(try oracle.decodeError(wire, as: "rtm.Codec") == OracleDecodeError(.overlongVarint, at: 2))
    }

    @Test func aLengthPrefixLongerThanFiveBytesIsAcceptedByTheFacadeAndRejectedByTheOracle() async throws {
        // docs/deviations.md row 16: nanopb reads a length prefix like any 32-bit varint (up to
        // 10 bytes); Google's parser and the oracle refuse a prefix of more than 5 bytes.
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0x12, 0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 0x61]
        #expect(try Rtm_Codec(serializedBytes: wire).serializedBytes() == [0x12, 0x01, 0x61])
        #expect(try oracle.decodeError(wire, as: "rtm.Codec") == OracleDecodeError(.overlongLength, at: 1))
    }
}
