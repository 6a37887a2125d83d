import ProtoOracle
import ProtoSchema
import Testing

/// The canonical encoding, as Google's implementations write it, pinned byte for byte
/// (schema: Fixtures/wire).
@Suite struct EncoderTests {
    let S = "wire3.Scalars"
    let L = "wire2.Legacy"

    /// Asserts the encoding of `message` and that decoding it gives `message` back.
    func expectEncoding(_ message: DynamicMessage, _ hex: String, _ set: SchemaSet, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let encoded = message.serializedBytes()
        #expect(hexString(encoded) == hexString(bytes(hex)), sourceLocation: sourceLocation)
        #expect(message.serializedSize() == encoded.count, sourceLocation: sourceLocation)
        let decoded = try DynamicMessage(serializedBytes: encoded, schema: message.schema, in: set)
        #expect(decoded == message, sourceLocation: sourceLocation)
    }

    @Test func negativeInt32AndEnumsEncodeAsTenByteVarints() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message[number: 1] = .int32(-1)
        try expectEncoding(message, "08 ff ff ff ff ff ff ff ff ff 01", set)
        message = try empty(S, set)
        message[number: 12] = .enumValue(-2)
        try expectEncoding(message, "60 fe ff ff ff ff ff ff ff ff 01", set)
    }

    @Test func sintFieldsUseZigzag() async throws {
        let set = try await Fixtures.wire()
        for (value, hex) in [(Int32(-1), "20 01"), (1, "20 02"), (.min, "20 ff ff ff ff 0f"), (.max, "20 fe ff ff ff 0f")] {
            var message = try empty(S, set)
            message[number: 4] = .int32(value)
            try expectEncoding(message, hex, set)
        }
        var wide = try empty(S, set)
        wide[number: 11] = .int64(.min)
        try expectEncoding(wide, "58 ff ff ff ff ff ff ff ff ff 01", set)
    }

    @Test func fixedWidthValuesAreLittleEndian() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message[number: 10] = .uint32(0x0102_0304)
        message[number: 8] = .double(1)
        message[number: 9] = .float(1)
        try expectEncoding(message, "41 00 00 00 00 00 00 f0 3f  4d 00 00 80 3f  55 04 03 02 01", set)
    }

    @Test func nanPayloadsArePreservedBitExactly() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message[number: 8] = .double(Double(bitPattern: 0xFFF8_0000_DEAD_BEEF))
        message[number: 9] = .float(Float(bitPattern: 0x7FA0_0001))  // signalling NaN with payload
        try expectEncoding(message, "41 ef be ad de 00 00 f8 ff  4d 01 00 a0 7f", set)
    }

    @Test func implicitPresenceZeroValuesAreOmitted() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message[number: 1] = .int32(0)
        message[number: 5] = .bool(false)
        message[number: 6] = .text("")
        message[number: 8] = .double(0)
        message[number: 12] = .enumValue(0)
        try expectEncoding(message, "", set)
    }

    @Test func negativeZeroIsNotAnImplicitDefault() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message[number: 8] = .double(-0.0)
        message[number: 9] = .float(-0.0)
        try expectEncoding(message, "41 00 00 00 00 00 00 00 80  4d 00 00 00 80", set)
    }

    @Test func explicitlyPresentZeroValuesAreWritten() async throws {
        let set = try await Fixtures.wire()
        var optional = try empty(S, set)
        optional[number: 22] = .int32(0)
        try expectEncoding(optional, "b0 01 00", set)
        var oneof = try empty(S, set)
        oneof[number: 19] = .int32(0)
        try expectEncoding(oneof, "98 01 00", set)
        var legacy = try empty(L, set)
        legacy[number: 6] = .int32(0)
        legacy[number: 11] = .int32(0)
        try expectEncoding(legacy, "30 00 58 00", set)
    }

    @Test func proto3RepeatedScalarsArePackedUnlessPackedFalse() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message.setRepeated(number: 13, [.int32(1), .int32(-1)])
        message.setRepeated(number: 14, [.int32(1), .int32(2)])
        try expectEncoding(message, "6a 0b 01 ff ff ff ff ff ff ff ff ff 01  70 01 70 02", set)
    }

    @Test func proto2RepeatedScalarsAreUnpackedUnlessPackedTrue() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(L, set)
        message[number: 6] = .int32(1)
        message.setRepeated(number: 10, [.int32(1), .int32(2)])
        message.setRepeated(number: 3, [.enumValue(1), .enumValue(2)])
        try expectEncoding(message, "1a 02 01 02  30 01  50 01 50 02", set)
    }

    @Test func mapEntriesAlwaysWriteKeyAndValue() async throws {
        // As protoc writes `m { key: 0 value: 0 }` and `m { }`: 22 04 08 00 10 00.
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message.setMap(number: 17, ProtoMap([(.int32(0), .text(""))]))
        message.setMap(number: 18, ProtoMap([(.text(""), .message(try empty(S, set)))]))
        try expectEncoding(message, "8a 01 04 08 00 12 00  92 01 04 0a 00 12 00", set)
    }

    @Test func mapEntriesFollowInsertionOrderOrKeyOrderOnRequest() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message.setMap(number: 17, ProtoMap([(.int32(5), .text("a")), (.int32(-1), .text("b"))]))
        let five = "8a 01 05 08 05 12 01 61"
        let minusOne = "8a 01 0e 08 ff ff ff ff ff ff ff ff ff 01 12 01 62"
        #expect(message.serializedBytes() == bytes(five + " " + minusOne))
        let sorted = message.serializedBytes(options: BinaryEncodingOptions(mapEntryOrder: .sortedByKey))
        #expect(sorted == bytes(minusOne + " " + five))
    }

    @Test func fieldsAreWrittenInFieldNumberOrder() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message[number: 22] = .int32(3)
        message[number: 3] = .uint32(2)
        message[number: 1] = .int32(1)
        try expectEncoding(message, "08 01 18 02 b0 01 03", set)
    }

    @Test func unknownFieldsFollowKnownFields() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message.unknownFields = [.varint(30, 5), .lengthDelimited(31, [0x61])]
        message[number: 1] = .int32(1)
        try expectEncoding(message, "08 01 f0 01 05 fa 01 01 61", set)
    }

    @Test func groupsEncodeBetweenStartAndEndTags() async throws {
        let set = try await Fixtures.wire()
        let groupType = try #require(set.message("wire2.Legacy.G"))
        var group = DynamicMessage(schema: groupType, in: set)
        group[number: 8] = .int32(5)
        var message = try empty(L, set)
        message[number: 6] = .int32(1)
        message[number: 7] = .message(group)
        try expectEncoding(message, "30 01 3b 40 05 3c", set)
    }

    @Test func sizePassMatchesWritePassOnEveryExemplar() async throws {
        let set = try await Fixtures.foreign()
        for exemplar in Exemplars(schemas: set).all() {
            #expect(exemplar.message.serializedSize() == exemplar.message.serializedBytes().count, "\(exemplar.name)")
        }
    }
}
