import ProtoOracle
import ProtoSchema
import Testing

/// What a conforming parser must accept, pinned with handcrafted bytes (schema:
/// Fixtures/wire/wire3.proto and wire2.proto; tag bytes are listed there).
@Suite struct DecoderAcceptTests {
    let S = "wire3.Scalars"
    let L = "wire2.Legacy"

    @Test func packedAndUnpackedBothDecode() async throws {
        let set = try await Fixtures.wire()
        // Field 13 is packed in the schema: unpacked, packed, unpacked again.
        let packed = try decode("68 01  6a 02 02 03  68 04", as: S, set)
        #expect(packed.repeated(number: 13) == [.int32(1), .int32(2), .int32(3), .int32(4)])
        // Field 14 is [packed = false]: packed input is accepted too.
        let unpacked = try decode("72 02 05 06  70 07", as: S, set)
        #expect(unpacked.repeated(number: 14) == [.int32(5), .int32(6), .int32(7)])
        // Packed fixed64 and packed enums.
        let fixed = try decode("ba 01 08 01 00 00 00 00 00 00 00  c2 01 02 01 07", as: S, set)
        #expect(fixed.repeated(number: 23) == [.uint64(1)])
        #expect(fixed.repeated(number: 24) == [.enumValue(1), .enumValue(7)])
    }

    @Test func lastValueWinsForSingularScalars() async throws {
        let set = try await Fixtures.wire()
        let message = try decode("08 01 08 02  32 01 61 32 01 62  41 00 00 00 00 00 00 f0 3f 41 00 00 00 00 00 00 00 40", as: S, set)
        #expect(message[number: 1] == .int32(2))
        #expect(message[number: 6] == .text("b"))
        #expect(message[number: 8] == .double(2))
    }

    @Test func singularSubmessagesMergeRecursively() async throws {
        let set = try await Fixtures.wire()
        // child { i32: 5 child { i32: 1 } } then child { child { i64: 9 } }
        let message = try decode("82 01 07 08 05 82 01 02 08 01  82 01 05 82 01 02 10 09", as: S, set)
        var grandchild = try empty(S, set)
        grandchild[number: 1] = .int32(1)
        grandchild[number: 2] = .int64(9)
        var child = try empty(S, set)
        child[number: 1] = .int32(5)
        child[number: 16] = .message(grandchild)
        var expected = try empty(S, set)
        expected[number: 16] = .message(child)
        #expect(message == expected)
    }

    @Test func repeatedFieldsAppendAcrossOccurrences() async throws {
        let set = try await Fixtures.wire()
        let message = try decode("7a 01 61  08 01  7a 01 62", as: S, set)
        #expect(message.repeated(number: 15) == [.text("a"), .text("b")])
    }

    @Test func concatenationDecodesAsMerge() async throws {
        let set = try await Fixtures.wire()
        let schema = try #require(set.message(S))
        var random = RandomMessages(schemas: set, seed: 42)
        for round in 0..<200 {
            let first = random.message(of: S), second = random.message(of: S)
            let a = try #require(first).serializedBytes()
            let b = try #require(second).serializedBytes()
            let whole = try DynamicMessage(serializedBytes: a + b, schema: schema, in: set)
            var merged = try DynamicMessage(serializedBytes: a, schema: schema, in: set)
            try merged.merge(serializedBytes: b, in: set)
            #expect(whole == merged, "round \(round): a=\(hexString(a)) b=\(hexString(b))")
        }
    }

    @Test func laterOneofMemberReplacesEarlierOne() async throws {
        let set = try await Fixtures.wire()
        let message = try decode("98 01 05  aa 01 01 78", as: S, set)
        #expect(!message.has(number: 19))
        #expect(message[number: 21] == .text("x"))
        let reversed = try decode("aa 01 01 78  98 01 05", as: S, set)
        #expect(reversed[number: 19] == .int32(5))
        #expect(!reversed.has(number: 21))
    }

    @Test func laterOccurrenceOfTheSameOneofMessageMemberMerges() async throws {
        let set = try await Fixtures.wire()
        let merged = try decode("a2 01 02 08 01  a2 01 02 10 02", as: S, set)
        var expected = try empty(S, set)
        expected[number: 1] = .int32(1)
        expected[number: 2] = .int64(2)
        #expect(merged[number: 20] == .message(expected))
        // A different member in between clears the message, so only the later part remains.
        let interrupted = try decode("a2 01 02 08 01  98 01 03  a2 01 02 10 02", as: S, set)
        var later = try empty(S, set)
        later[number: 2] = .int64(2)
        #expect(interrupted[number: 20] == .message(later))
        #expect(!interrupted.has(number: 19))
    }

    @Test func mapEntryMissingKeyOrValueTakesDefaults() async throws {
        let set = try await Fixtures.wire()
        let labels = try decode("8a 01 00  8a 01 02 08 05", as: S, set)
        #expect(labels.map(number: 17) == ProtoMap([(.int32(0), .text("")), (.int32(5), .text(""))]))
        let children = try decode("92 01 03 0a 01 6b", as: S, set)
        #expect(children.map(number: 18) == ProtoMap([(.text("k"), .message(try empty(S, set)))]))
        let valueOnly = try decode("8a 01 03 12 01 61", as: S, set)
        #expect(valueOnly.map(number: 17) == ProtoMap([(.int32(0), .text("a"))]))
    }

    @Test func laterMapEntryWithSameKeyWins() async throws {
        let set = try await Fixtures.wire()
        let labels = try decode("8a 01 05 08 01 12 01 61  8a 01 05 08 01 12 01 62", as: S, set)
        #expect(labels.map(number: 17) == ProtoMap([(.int32(1), .text("b"))]))
        // Message values are replaced, not merged.
        let children = try decode("92 01 07 0a 01 6b 12 02 08 01  92 01 07 0a 01 6b 12 02 10 02", as: S, set)
        var value = try empty(S, set)
        value[number: 2] = .int64(2)
        #expect(children.map(number: 18) == ProtoMap([(.text("k"), .message(value))]))
    }

    @Test func mapEntryIgnoresUnknownFieldsInsideIt() async throws {
        let set = try await Fixtures.wire()
        let message = try decode("8a 01 07 08 01 12 01 61 18 05", as: S, set)
        #expect(message.map(number: 17) == ProtoMap([(.int32(1), .text("a"))]))
        #expect(message.unknownFields.isEmpty)
    }

    @Test func unknownFieldsOfEveryWireTypeAreKeptByteExact() async throws {
        let set = try await Fixtures.wire()
        let unknownVarint = "f0 01 96 01"
        let unknownFixed64 = "f9 01 01 02 03 04 05 06 07 08"
        let unknownLengthDelimited = "82 02 02 68 69"
        let unknownGroup = "8b 02 08 01 13 08 02 14 8c 02"  // nested group inside
        let unknownFixed32 = "95 02 0a 0b 0c 0d"
        let paddedVarint = "98 02 81 80 00"
        let input = [unknownVarint, "08 07", unknownFixed64, unknownLengthDelimited, unknownGroup, unknownFixed32, paddedVarint]
            .joined(separator: " ")
        let message = try decode(input, as: S, set)
        #expect(message[number: 1] == .int32(7))
        #expect(message.unknownFields.map(\.number) == [30, 31, 32, 33, 34, 35])
        #expect(message.unknownFields.map(\.wireType) == [.varint, .fixed64, .lengthDelimited, .startGroup, .fixed32, .varint])
        #expect(message.unknownFields[3].payload == bytes("08 01 13 08 02 14 8c 02"))
        // Re-encoding writes known fields first, then the unknown ones byte for byte, in order.
        let expected = ["08 07", unknownVarint, unknownFixed64, unknownLengthDelimited, unknownGroup, unknownFixed32, paddedVarint]
            .joined(separator: " ")
        #expect(message.serializedBytes() == bytes(expected))
    }

    @Test func unknownFieldsAreDroppedWhenAsked() async throws {
        let set = try await Fixtures.wire()
        let input = "f0 01 96 01  08 07  8b 02 08 01 8c 02  95 02 0a 0b 0c 0d"
        let message = try decode(input, as: S, set, options: BinaryDecodingOptions(discardUnknownFields: true))
        var expected = try empty(S, set)
        expected[number: 1] = .int32(7)
        #expect(message == expected)
        #expect(message.unknownFields.isEmpty)
    }

    @Test func tenByteVarintDecodesToNegativeInt64() async throws {
        let set = try await Fixtures.wire()
        #expect(try decode("10 ff ff ff ff ff ff ff ff ff 01", as: S, set)[number: 2] == .int64(-1))
    }

    @Test func int32FieldsKeepTheLow32BitsOfAWideVarint() async throws {
        let set = try await Fixtures.wire()
        #expect(try decode("08 85 80 80 80 10", as: S, set)[number: 1] == .int32(5))  // 2^32 + 5
        #expect(try decode("08 ff ff ff ff 0f", as: S, set)[number: 1] == .int32(-1))  // 2^32 - 1
        #expect(try decode("18 ff ff ff ff ff ff ff ff ff 01", as: S, set)[number: 3] == .uint32(.max))
        #expect(try decode("60 fe ff ff ff ff ff ff ff ff 01", as: S, set)[number: 12] == .enumValue(-2))
    }

    @Test func boolIsTrueForAnyNonZeroVarint() async throws {
        let set = try await Fixtures.wire()
        #expect(try decode("28 02", as: S, set)[number: 5] == .bool(true))
        #expect(try decode("28 80 80 80 80 80 80 80 80 80 01", as: S, set)[number: 5] == .bool(true))
        #expect(try decode("28 80 00", as: S, set) == (try empty(S, set)))  // padded zero: false, so absent
    }

    @Test func overwideTenthVarintByteIsAcceptedAndTruncatedLikeGoogle() async throws {
        // protoc --decode reads `10 ff*9 7f` as i64: -1: bits beyond 64 are dropped.
        let set = try await Fixtures.wire()
        #expect(try decode("10 ff ff ff ff ff ff ff ff ff 7f", as: S, set)[number: 2] == .int64(-1))
    }

    @Test func paddedVarintsAreAccepted() async throws {
        let set = try await Fixtures.wire()
        #expect(try decode("08 81 80 80 80 00", as: S, set)[number: 1] == .int32(1))
        #expect(try decode("32 81 00 61", as: S, set)[number: 6] == .text("a"))  // padded length
    }

    @Test func fiveByteTagIsAccepted() async throws {
        // protoc accepts a tag padded to 5 bytes (and rejects 6; see the reject tests).
        let set = try await Fixtures.wire()
        #expect(try decode("88 80 80 80 00 01", as: S, set)[number: 1] == .int32(1))
    }

    @Test func largestFieldNumberIsAccepted() async throws {
        let set = try await Fixtures.wire()
        let message = try decode("f8 ff ff ff 0f 01", as: S, set)
        #expect(message.unknownFields == [UnknownField.varint(536_870_911, 1)])
    }

    @Test func knownFieldWithWrongWireTypeBecomesUnknown() async throws {
        // protoc --decode prints `1: 0x00000001` for field 1 (int32) sent as fixed32.
        let set = try await Fixtures.wire()
        let fixed = try decode("0d 01 00 00 00", as: S, set)
        #expect(!fixed.has(number: 1))
        #expect(fixed.unknownFields == [UnknownField.fixed32(1, 1)])
        // A message field sent as a group.
        let group = try decode("83 01 84 01", as: S, set)
        #expect(!group.has(number: 16))
        #expect(group.unknownFields == [UnknownField.group(16, [])])
        // A non-repeated scalar sent length-delimited.
        let lengthDelimited = try decode("0a 01 05", as: S, set)
        #expect(lengthDelimited.unknownFields == [UnknownField.lengthDelimited(1, [5])])
        // A map field sent as a varint.
        let mapAsVarint = try decode("88 01 05", as: S, set)
        #expect(!mapAsVarint.has(number: 17))
        #expect(mapAsVarint.unknownFields == [UnknownField.varint(17, 5)])
    }

    @Test func undeclaredClosedEnumNumbersGoToUnknownFields() async throws {
        let set = try await Fixtures.wire()
        let singular = try decode("30 01  08 05", as: L, set)
        #expect(!singular.has(number: 1))
        #expect(singular.unknownFields == [UnknownField.varint(1, 5)])
        let repeated = try decode("30 01  10 07 10 01", as: L, set)
        #expect(repeated.repeated(number: 2) == [.enumValue(1)])
        #expect(repeated.unknownFields == [UnknownField.varint(2, 7)])
        // In a packed run each undeclared number becomes its own unknown varint field.
        let packed = try decode("30 01  1a 03 01 09 02", as: L, set)
        #expect(packed.repeated(number: 3) == [.enumValue(1), .enumValue(2)])
        #expect(packed.unknownFields == [UnknownField.varint(3, 9)])
    }

    @Test func proto3EnumInAProto2FieldIsClosed() async throws {
        // protoc 3.21 decides closedness by the field's file: `p2.M { optional e3.Open e = 1; }`
        // decodes `08 05` as the unknown field `1: 5`.
        let set = try await Fixtures.wire()
        let message = try decode("30 01  60 07  60 01", as: L, set)
        #expect(message[number: 12] == .enumValue(1))
        #expect(message.unknownFields == [UnknownField.varint(12, 7)])
    }

    @Test func undeclaredClosedEnumMapValueMakesTheWholeEntryUnknown() async throws {
        let set = try await Fixtures.wire()
        let message = try decode("30 01  22 04 08 01 10 05", as: L, set)
        #expect(message.map(number: 4).isEmpty)
        #expect(message.unknownFields == [UnknownField.lengthDelimited(4, bytes("08 01 10 05"))])
    }

    @Test func openEnumKeepsUndeclaredNumbers() async throws {
        let set = try await Fixtures.wire()
        #expect(try decode("60 07", as: S, set)[number: 12] == .enumValue(7))
        #expect(try decode("c2 01 01 63", as: S, set).repeated(number: 24) == [.enumValue(99)])
    }

    @Test func proto2StringsMayHoldInvalidUTF8() async throws {
        let set = try await Fixtures.wire()
        let message = try decode("30 01  2a 02 ff c0", as: L, set)
        #expect(message[number: 5] == .string([0xFF, 0xC0]))
    }

    @Test func implicitPresenceZeroOnTheWireLeavesTheFieldAbsent() async throws {
        let set = try await Fixtures.wire()
        let message = try decode("08 00  32 00  28 00  41 00 00 00 00 00 00 00 00", as: S, set)
        #expect(message == (try empty(S, set)))
        #expect(message.presentFieldNumbers.isEmpty)
        let explicit = try decode("b0 01 00", as: S, set)
        #expect(explicit[number: 22] == .int32(0))
    }

    @Test func groupsDecodeAndMerge() async throws {
        let set = try await Fixtures.wire()
        let message = try decode("30 01  3b 40 05 3c  3b 40 06 3c", as: L, set)
        let group = try #require(message[number: 7]?.messageValue)
        #expect(group[number: 8] == .int32(6))
        #expect(message.serializedBytes() == bytes("30 01 3b 40 06 3c"))
    }

    @Test func nestingAtTheDepthLimitDecodes() async throws {
        let set = try await Fixtures.wire()
        let schema = try #require(set.message(S))
        let input = nestedChildren(depth: 100)
        let message = try DynamicMessage(serializedBytes: input, schema: schema, in: set)
        #expect(message.serializedBytes() == input)
    }

    @Test func emptyInputDecodesToAnEmptyMessage() async throws {
        let set = try await Fixtures.wire()
        #expect(try decode("", as: S, set) == (try empty(S, set)))
    }

    @Test func missingRequiredFieldsDoNotFailDecoding() async throws {
        // protoc --decode prints such a message and only warns; the oracle reports it separately.
        let set = try await Fixtures.wire()
        let message = try decode("08 01", as: L, set)
        #expect(message[number: 1] == .enumValue(1))
        #expect(!message.isInitialized)
        #expect(message.missingRequiredFields == ["req"])
    }
}

/// `depth` nested `child` fields of `wire3.Scalars` (field 16), innermost empty.
func nestedChildren(depth: Int) -> [UInt8] {
    var message: [UInt8] = []
    for _ in 0..<depth {
        var length: [UInt8] = []
        var rest = UInt64(message.count)
        while rest >= 0x80 { length.append(UInt8(rest & 0x7F) | 0x80); rest >>= 7 }
        length.append(UInt8(rest))
        message = [0x82, 0x01] + length + message
    }
    return message
}
