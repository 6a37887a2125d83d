import ProtoOracle
import ProtoSchema
import Testing

/// What the decoder must reject, each with the exact reason and the byte offset where the
/// problem starts (schema: Fixtures/wire; tag bytes are listed in the .proto files).
@Suite struct DecoderRejectTests {
    let S = "wire3.Scalars"
    let L = "wire2.Legacy"

    @Test func rejectsTruncatedVarintAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("08 01 08 ff", as: S, set) == OracleDecodeError(.truncatedVarint, at: 3))
        #expect(try decodeError("08", as: S, set) == OracleDecodeError(.truncatedVarint, at: 1))
    }

    @Test func rejectsTruncatedTagAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("08 01 82", as: S, set) == OracleDecodeError(.truncatedVarint, at: 2))
    }

    @Test func rejectsTruncatedFixed64AtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("41 00 00 00", as: S, set) == OracleDecodeError(.truncatedFixed, at: 1))
        // Unknown fixed64 too.
        #expect(try decodeError("08 01 f9 01 00", as: S, set) == OracleDecodeError(.truncatedFixed, at: 4))
    }

    @Test func rejectsTruncatedFixed32AtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("08 01 4d 00 00", as: S, set) == OracleDecodeError(.truncatedFixed, at: 3))
    }

    @Test func rejectsTruncatedLengthDelimitedAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("32 05 61 62", as: S, set) == OracleDecodeError(.lengthPastEnd, at: 1))
        #expect(try decodeError("82 02 03 00", as: S, set) == OracleDecodeError(.lengthPastEnd, at: 2))  // unknown
    }

    @Test func rejectsLengthPastTheEnclosingMessageAtOffset() async throws {
        // The child is 3 bytes long; its string claims 5 although the input goes on.
        let set = try await Fixtures.wire()
        #expect(try decodeError("82 01 03 32 05 61 62 63 64 65", as: S, set) == OracleDecodeError(.lengthPastEnd, at: 4))
    }

    @Test func rejectsHugeLengthsWithoutAllocating() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("3a ff ff ff ff 0f", as: S, set) == OracleDecodeError(.lengthPastEnd, at: 1))
        #expect(try decodeError("3a ff ff ff ff ff ff ff ff ff 01", as: S, set) == OracleDecodeError(.overlongLength, at: 1))
        #expect(try decodeError("3a ff ff ff ff 07", as: S, set) == OracleDecodeError(.lengthPastEnd, at: 1))
        #expect(try decodeError("6a ff ff ff 7f 01", as: S, set) == OracleDecodeError(.lengthPastEnd, at: 1))  // packed
    }

    @Test func rejectsTruncatedPackedElementAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("6a 02 01 ff", as: S, set) == OracleDecodeError(.truncatedVarint, at: 3))
        #expect(try decodeError("ba 01 03 00 00 00", as: S, set) == OracleDecodeError(.truncatedFixed, at: 3))
    }

    @Test func rejectsVarintLongerThanTenBytesAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("08 01 10 ff ff ff ff ff ff ff ff ff ff 01", as: S, set) == OracleDecodeError(.overlongVarint, at: 3))
        // The check happens at the 10th byte, even when the input ends right after it.
        #expect(try decodeError("10 80 80 80 80 80 80 80 80 80 80", as: S, set) == OracleDecodeError(.overlongVarint, at: 1))
    }

    @Test func rejectsOverwideTenthVarintByteWhenStrict() async throws {
        let set = try await Fixtures.wire()
        let strict = BinaryDecodingOptions(rejectOverwideVarints: true)
        #expect(try decodeError("10 ff ff ff ff ff ff ff ff ff 02", as: S, set, options: strict) == OracleDecodeError(.overwideVarint, at: 1))
        #expect(try decode("10 ff ff ff ff ff ff ff ff ff 01", as: S, set, options: strict)[number: 2] == .int64(-1))
    }

    @Test func rejectsTagLongerThanFiveBytesAtOffset() async throws {
        // protoc rejects a 6-byte tag (and accepts a 5-byte one).
        let set = try await Fixtures.wire()
        #expect(try decodeError("08 01 88 80 80 80 80 00 01", as: S, set) == OracleDecodeError(.overlongVarint, at: 2))
    }

    @Test func rejectsWireTypeSixAndSevenAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("08 01 0e", as: S, set) == OracleDecodeError(.invalidWireType, at: 2))
        #expect(try decodeError("08 01 0f 00", as: S, set) == OracleDecodeError(.invalidWireType, at: 2))
        // Inside an unknown group as well.
        #expect(try decodeError("8b 02 0f 8c 02", as: S, set) == OracleDecodeError(.invalidWireType, at: 2))
    }

    @Test func rejectsFieldNumberZeroAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("08 01 02 00", as: S, set) == OracleDecodeError(.fieldNumberZero, at: 2))
        #expect(try decodeError("00", as: S, set) == OracleDecodeError(.fieldNumberZero, at: 0))
    }

    @Test func aFiveByteTagIsTruncatedTo32BitsLikeGooglesParser() async throws {
        // Tag 2^32 (field number 2^29 before truncation) wraps to tag 0, which Google's C++ parser
        // rejects; tag 2^32 + 8 wraps to field 1 varint, which it accepts (docs/fuzzing.md, "The parsers' differences, decided").
        let set = try await Fixtures.wire()
        #expect(try decodeError("08 01 80 80 80 80 10 00", as: S, set) == OracleDecodeError(.fieldNumberZero, at: 2))
        #expect(try decode("88 80 80 80 10 01", as: S, set) == decode("08 01", as: S, set))
        #expect(try decode("88 80 80 80 10 01", as: S, set).unknownFields.isEmpty)
    }

    @Test func rejectsALengthPrefixLongerThanFiveBytesLikeGooglesParser() async throws {
        // Google's parsers read a size in at most 5 bytes: a padded 6-byte prefix of 1 is refused
        // (the oracle used to accept it and re-emit it, bytes protoc then refused).
        let set = try await Fixtures.wire()
        #expect(try decodeError("32 81 80 80 80 80 00 61", as: S, set) == OracleDecodeError(.overlongLength, at: 1))
        #expect(try decodeError("08 01 d2 01 81 80 80 80 80 80 80 80 80 00 61", as: S, set) == OracleDecodeError(.overlongLength, at: 4))
        // A padded 5-byte prefix is still a prefix.
        #expect(try decode("32 81 80 80 80 00 61", as: S, set) == decode("32 01 61", as: S, set))
    }

    @Test func rejectsInvalidUTF8InProto3StringsAtTheBadByte() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("32 03 61 c3 28", as: S, set) == OracleDecodeError(.invalidUTF8, at: 3))  // bad continuation
        #expect(try decodeError("32 02 c0 80", as: S, set) == OracleDecodeError(.invalidUTF8, at: 2))  // overlong
        #expect(try decodeError("32 03 ed a0 80", as: S, set) == OracleDecodeError(.invalidUTF8, at: 2))  // surrogate
        #expect(try decodeError("32 04 f4 90 80 80", as: S, set) == OracleDecodeError(.invalidUTF8, at: 2))  // > U+10FFFF
        #expect(try decodeError("7a 02 61 ff", as: S, set) == OracleDecodeError(.invalidUTF8, at: 3))  // repeated
        #expect(try decodeError("92 01 04 0a 02 ff 61", as: S, set) == OracleDecodeError(.invalidUTF8, at: 5))  // map key
    }

    @Test func rejectsMismatchedEndGroupAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("30 01 3b 40 01 44", as: L, set) == OracleDecodeError(.mismatchedEndGroup, at: 5))
        #expect(try decodeError("8b 02 08 01 14", as: S, set) == OracleDecodeError(.mismatchedEndGroup, at: 4))
    }

    @Test func rejectsUnexpectedEndGroupAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("08 01 0c", as: S, set) == OracleDecodeError(.unexpectedEndGroup, at: 2))
        // Inside a submessage no group is open, whatever encloses it.
        #expect(try decodeError("82 01 02 8c 02", as: S, set) == OracleDecodeError(.unexpectedEndGroup, at: 3))
    }

    @Test func rejectsUnterminatedGroupAtOffset() async throws {
        let set = try await Fixtures.wire()
        #expect(try decodeError("30 01 3b 40 01", as: L, set) == OracleDecodeError(.unterminatedGroup, at: 2))
        #expect(try decodeError("08 01 8b 02 08 01", as: S, set) == OracleDecodeError(.unterminatedGroup, at: 2))
        // A group cannot run past the end of the submessage that holds it.
        #expect(try decodeError("82 01 04 8b 02 08 01 8c 02", as: S, set) == OracleDecodeError(.unterminatedGroup, at: 3))
    }

    @Test func rejectsMessageNestingBeyondTheDefaultLimitAtOffset() async throws {
        let set = try await Fixtures.wire()
        let schema = try #require(set.message(S))
        let input = nestedChildren(depth: 101)
        // The 101st child's tag sits after 100 prefixes of a 2-byte tag and a length varint.
        var offset = 0
        for _ in 0..<100 {
            offset += 2
            while input[offset] & 0x80 != 0 { offset += 1 }
            offset += 1
        }
        #expect(throws: OracleDecodeError(.nestingTooDeep, at: offset)) {
            try DynamicMessage(serializedBytes: input, schema: schema, in: set)
        }
    }

    @Test func rejectsNestingBeyondAConfiguredLimitAtOffset() async throws {
        let set = try await Fixtures.wire()
        let shallow = BinaryDecodingOptions(maxDepth: 2)
        #expect(try decodeError("82 01 06 82 01 03 82 01 00", as: S, set, options: shallow) == OracleDecodeError(.nestingTooDeep, at: 6))
        // Unknown groups count as nesting too.
        #expect(try decodeError("8b 02 8b 02 8b 02 8c 02 8c 02 8c 02", as: S, set, options: shallow) == OracleDecodeError(.nestingTooDeep, at: 4))
        // Map entries are one level each.
        #expect(try decodeError("82 01 06 92 01 03 0a 01 61", as: S, set, options: BinaryDecodingOptions(maxDepth: 1)) == OracleDecodeError(.nestingTooDeep, at: 3))
    }

    @Test func failedMergeLeavesTheMessageUnchanged() async throws {
        let set = try await Fixtures.wire()
        var message = try decode("08 01", as: S, set)
        let before = message
        #expect(throws: OracleDecodeError(.truncatedVarint, at: 3)) {
            try message.merge(serializedBytes: bytes("08 02 10 ff"), in: set)
        }
        #expect(message == before)
    }
}
