import ProtoOracle
import ProtoSchema
import Testing

/// The text-format printer and parser (protoc compatibility is checked end to end in
/// ProtocCrossCheckTests; these pin the details).
@Suite struct TextFormatTests {
    let S = "wire3.Scalars"
    let L = "wire2.Legacy"

    @Test func printerEscapesNonPrintableBytesAsOctal() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message["by"] = .bytes([0x00, 0x0A, 0x22, 0x27, 0x5C, 0x41, 0xFF, 0x7F, 0x0D, 0x09])
        #expect(message.textFormat == #"by: "\000\n\"\'\\A\377\177\r\t""# + "\n")
    }

    @Test func printerWritesSpecialFloatsAsProtocReadsThem() async throws {
        let set = try await Fixtures.wire()
        for (value, text) in [(Double.infinity, "inf"), (-.infinity, "-inf"), (.nan, "nan"), (-0.0, "-0.0"), (1e-5, "1e-05")] {
            var message = try empty(S, set)
            message["d"] = .double(value)
            #expect(message.textFormat == "d: \(text)\n")
        }
    }

    @Test func unknownFieldGroupsCountAgainstTheNestingLimit() async throws {
        // protoc --decode writes an undecodable length-delimited field as `99 { 1: 5 }`; those
        // groups nest like messages and stop at the same limit.
        let set = try await Fixtures.wire()
        let parser = TextFormatParser(schemas: set, maxDepth: 3)
        func nested(_ levels: Int) -> String { String(repeating: "99 { ", count: levels) + "1: 5" + String(repeating: " }", count: levels) }
        let three = try parser.parse(nested(3), as: S)
        #expect(three.unknownFields.count == 1)
        do {
            let four = try parser.parse(nested(4), as: S)
            Issue.record("four levels parsed under a limit of three: \(four)")
        } catch {
            #expect(error.reason == .nestingTooDeep && error.line == 1, "\(error)")
        }
    }

    @Test func floatsAndDoublesRoundTripThroughTextBitExactly() async throws {
        let set = try await Fixtures.wire()
        let parser = TextFormatParser(schemas: set)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<5_000 {
            var message = try empty(S, set)
            let double = Double(bitPattern: rng.next())
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
            message["d"] = .double(double.isNaN ? .nan : double)
            message["f"] = .float(float.isNaN ? .nan : float)
            let reparsed = try parser.parse(message.textFormat, as: S)
            #expect(reparsed == message, "\(message.textFormat)")
        }
    }

    @Test func nestedMessagesMapsAndGroupsPrintAsBlocks() async throws {
        let set = try await Fixtures.wire()
        var child = try empty(S, set)
        child["i32"] = .int32(-7)
        var message = try empty(S, set)
        message["child"] = .message(child)
        message.setMap(number: 17, ProtoMap([(.int32(1), .text("one"))]))
        message.setRepeated(number: 15, [.text("a"), .text("b")])
        message["color"] = .enumValue(-2)
        #expect(message.textFormat == """
            color: BLUE
            names: "a"
            names: "b"
            child {
              i32: -7
            }
            labels {
              key: 1
              value: "one"
            }

            """)
        let groupType = try #require(set.message("wire2.Legacy.G"))
        var group = DynamicMessage(schema: groupType, in: set)
        group["a"] = .int32(5)
        var legacy = try empty(L, set)
        legacy["g"] = .message(group)  // the field is `g`; text uses the type name
        #expect(legacy.textFormat == "G {\n  a: 5\n}\n")
    }

    @Test func undeclaredOpenEnumNumbersPrintAsNumbers() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message["color"] = .enumValue(42)
        #expect(message.textFormat == "color: 42\n")
        #expect(try TextFormatParser(schemas: set).parse("color: 42", as: S) == message)
    }

    @Test func parserReadsProtocDecodeOutput() async throws {
        // Shaped like `protoc --decode` output: octal escapes, nested blocks, unknown fields.
        let set = try await Fixtures.wire()
        let text = """
            i32: -1
            d: 4.94065645841247e-324
            f: 1.40129846e-45
            s: "a\\303\\274"
            child {
              i64: 9
            }
            labels {
              key: 1
              value: "b"
            }
            30: 150
            31: 0x0807060504030201
            32: "hi"
            34: 0x0d0c0b0a
            33 {
              1: 1
            }

            """
        let message = try TextFormatParser(schemas: set).parse(text, as: S)
        #expect(message["i32"] == .int32(-1))
        #expect(message["d"] == .double(.leastNonzeroMagnitude))
        #expect(message["f"] == .float(.leastNonzeroMagnitude))
        #expect(message["s"] == .text("aü"))
        #expect(message.map(named: "labels") == ProtoMap([(.int32(1), .text("b"))]))
        #expect(message.unknownFields == [
            .varint(30, 150), .fixed64(31, 0x0807_0605_0403_0201), .lengthDelimited(32, Array("hi".utf8)),
            .fixed32(34, 0x0D0C_0B0A), .lengthDelimited(33, [0x08, 0x01]),
        ])
    }

    @Test func parserAcceptsHandWrittenVariants() async throws {
        let set = try await Fixtures.wire()
        let text = """
            # a comment
            i32: 0x10, u32: 017; names: ["a", 'b' "c"]
            child < i64: -9223372036854775808 >
            child: { b: t }
            d: 1e3 f: 2.5f color: RED
            packed: [1, -2]
            labels { value: "v" }
            """
        let message = try TextFormatParser(schemas: set).parse(text, as: S)
        #expect(message["i32"] == .int32(16))
        #expect(message["u32"] == .uint32(15))
        #expect(message.repeated(named: "names") == [.text("a"), .text("bc")])
        var child = try empty(S, set)
        child["i64"] = .int64(.min)
        child["b"] = .bool(true)
        #expect(message["child"] == .message(child))
        #expect(message["d"] == .double(1000))
        #expect(message["f"] == .float(2.5))
        #expect(message["color"] == .enumValue(1))
        #expect(message.repeated(named: "packed") == [.int32(1), .int32(-2)])
        #expect(message.map(named: "labels") == ProtoMap([(.int32(0), .text("v"))]))
    }

    @Test func parserRejectsUnknownFieldNamesWithPosition() async throws {
        let set = try await Fixtures.wire()
        #expect(throws: TextFormatError(.unknownField("nope"), line: 2, column: 3)) {
            try TextFormatParser(schemas: set).parse("i32: 1\n  nope: 2", as: "wire3.Scalars")
        }
    }

    @Test func parserRejectsAnUndeclaredMessageTypeAtTheStart() async throws {
        let set = try await Fixtures.wire()
        #expect(throws: TextFormatError(.unknownMessageType("wire3.Nope"), line: 1, column: 1)) {
            try TextFormatParser(schemas: set).parse("i32: 1", as: "wire3.Nope")
        }
    }

    @Test func errorPositionsCountLinesAndColumnsAcrossNewlines() async throws {
        // Line numbers advance by one per newline, also inside a nested message and after blank
        // lines; columns restart at 1 on each line.
        let set = try await Fixtures.wire()
        #expect(throws: TextFormatError(.unknownField("nope"), line: 4, column: 1)) {
            try TextFormatParser(schemas: set).parse("i32: 1\n\n\nnope: 2", as: "wire3.Scalars")
        }
        #expect(throws: TextFormatError(.unterminatedString, line: 3, column: 5)) {
            try TextFormatParser(schemas: set).parse("i32: 1\n\ns:  \"abc", as: "wire3.Scalars")
        }
    }

    @Test func aNumericFieldNameMustBeAValidFieldNumber() async throws {
        // Unknown fields in text format are named by number: 1 to 2^29 - 1.
        let set = try await Fixtures.wire()
        let parsed = try TextFormatParser(schemas: set).parse("536870911: 5", as: "wire3.Scalars")
        #expect(parsed.unknownFields == [.varint(536_870_911, 5)])
        for name in ["536870912", "0"] {
            #expect(throws: TextFormatError.self, "\(name)") { try TextFormatParser(schemas: set).parse("\(name): 5", as: "wire3.Scalars") }
        }
    }

    @Test func parserRejectsOutOfRangeIntegers() async throws {
        let set = try await Fixtures.wire()
        #expect(throws: TextFormatError(.invalidValue(field: "i32", text: "2147483648"), line: 1, column: 6)) {
            try TextFormatParser(schemas: set).parse("i32: 2147483648", as: "wire3.Scalars")
        }
        #expect(throws: TextFormatError.self) {
            try TextFormatParser(schemas: set).parse("u32: -1", as: "wire3.Scalars")
        }
    }

    @Test func parserRejectsUnterminatedStrings() async throws {
        let set = try await Fixtures.wire()
        #expect(throws: TextFormatError(.unterminatedString, line: 1, column: 4)) {
            try TextFormatParser(schemas: set).parse("s: \"abc", as: "wire3.Scalars")
        }
    }

    @Test func unknownFieldsAreOmittedOrShownAsComments() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message["i32"] = .int32(1)
        message.unknownFields = [.varint(30, 5), .varint(31, 300)]
        #expect(message.textFormat == "i32: 1\n")
        #expect(TextFormatPrinter(unknownFields: .asComments).print(message) == "i32: 1\n# 30: varint 05\n# 31: varint ac02\n",
                "each payload byte as two hex digits, high nibble first")
        #expect(!message.isTextExact)
    }
}
