@testable import ProtoOracle
import Testing

/// How the text-format tokenizer unescapes `\x`, `\u` and `\U` in a quoted literal: `\x` takes one
/// or two hex digits (either case) and stands for one byte; `\u` takes exactly four, `\U` exactly
/// eight, and both stand for the scalar's UTF-8. A malformed escape is `invalidEscape`, placed at
/// the line of the escape and the column of the byte after the last one read.
@Suite struct TextFormatHexAndUnicodeEscapeTests {
    /// The unescaped bytes of the one string literal in `source`.
    func unescaped(_ source: String) throws -> [UInt8] {
        var tokenizer = TextFormatTokenizer(source)
        let token = try tokenizer.next()
        #expect(token.kind == .string, "\(source) is not one string token")
        return token.bytes
    }

    /// The error the literal in `source` is refused with; nil when it is accepted.
    func refusal(_ source: String) -> TextFormatError? {
        var tokenizer = TextFormatTokenizer(source)
        do { _ = try tokenizer.next(); return nil } catch { return error }
    }

    @Test func hexEscapesTakeOneOrTwoDigitsOfEitherCase() throws {
        #expect(try unescaped(#""\x41""#) == [0x41])
        #expect(try unescaped(#""\x9""#) == [0x09])
        #expect(try unescaped(#""\xAf\XfA""#) == [0xAF, 0xFA])
        #expect(try unescaped(#""\x0a\x0F\x99""#) == [0x0A, 0x0F, 0x99])
        // A third hex digit is not part of the escape: it stands for itself.
        #expect(try unescaped(#""\x4142""#) == [0x41, 0x34, 0x32])
        // The bytes next to the digit and letter ranges end the escape.
        #expect(try unescaped(#""\x1:\x2/\x3`\x4g""#) == [0x01, 0x3A, 0x02, 0x2F, 0x03, 0x60, 0x04, 0x67])
    }

    @Test func aHexEscapeWithoutDigitsIsRefusedWhereItStands() throws {
        for source in [#""\xg""#, #""\x:""#, #""\x/""#, #""\x`""#, #""\x""#] {
            #expect(refusal(source) == TextFormatError(.invalidEscape, line: 1, column: 3), "\(source)")
        }
        // On a later line the column counts from that line's start.
        #expect(refusal("\n  \"\\xz\"") == TextFormatError(.invalidEscape, line: 2, column: 5))
    }

    @Test func unicodeEscapesTakeExactlyFourOrEightDigitsAndWriteUTF8() throws {
        #expect(try unescaped(#""\u0041""#) == [0x41])
        #expect(try unescaped(#""\u00e9""#) == [0xC3, 0xA9])
        #expect(try unescaped(#""\u20AC""#) == [0xE2, 0x82, 0xAC])
        #expect(try unescaped(#""\U0001F600""#) == [0xF0, 0x9F, 0x98, 0x80])
        // `\U` reads eight digits: a four-digit reading would leave "0041" behind.
        #expect(try unescaped(#""\U00000041""#) == [0x41])
        // A fifth digit after `\u` stands for itself.
        #expect(try unescaped(#""\u00411""#) == [0x41, 0x31])
    }

    @Test func aShortOrNonScalarUnicodeEscapeIsRefused() throws {
        // Two digits, then the closing quote where the third should be (index 5).
        #expect(refusal(#""\u12""#) == TextFormatError(.invalidEscape, line: 1, column: 5))
        #expect(refusal(#""\U0001F60""#) == TextFormatError(.invalidEscape, line: 1, column: 10))
        // A surrogate and a value past U+10FFFF are no Unicode scalars.
        #expect(refusal(#""\uD800""#) == TextFormatError(.invalidEscape, line: 1, column: 7))
        #expect(refusal(#""\U00110000""#) == TextFormatError(.invalidEscape, line: 1, column: 11))
    }
}
