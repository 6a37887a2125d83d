@testable import ProtoOracle
import Testing

/// What the text-format tokenizer splits a source into, token by token with its line and column:
/// identifiers (letters, digits, `_`), numbers (a digit or a `.` before a digit, then letters,
/// digits, dots, and a sign only right after an `e` that is not a hex digit), quoted strings, one
/// byte symbols, and the end; `#` comments and every whitespace byte between tokens are skipped.
@Suite struct TextFormatTokenStreamTests {
    /// `kind text @line:column` for every token of `source`, the end included.
    static func tokens(_ source: String) throws -> [String] {
        var tokenizer = TextFormatTokenizer(source)
        var out: [String] = []
        for _ in 0...source.utf8.count {
            let token = try tokenizer.next()
            out.append("\(token.kind) \(token.text) @\(token.line):\(token.column)")
            if token.kind == .end { return out }
        }
        Issue.record("no end token after \(source.utf8.count + 1) tokens")
        return out
    }

    @Test func identifiersNumbersStringsAndSymbolsWithTheirPositions() throws {
        #expect(try Self.tokens("a_1: -1.5e+3 .5 'x'\n  B9 {\t}# note\n[x]") == [
            "identifier a_1 @1:1", "symbol : @1:4", "symbol - @1:6", "number 1.5e+3 @1:7", "number .5 @1:14", "string 'x' @1:17",
            "identifier B9 @2:3", "symbol { @2:6", "symbol } @2:8",
            "symbol [ @3:1", "identifier x @3:2", "symbol ] @3:3", "end  @3:4",
        ])
    }

    @Test func aSignAfterAHexDigitEIsNotPartOfTheNumber() throws {
        #expect(try Self.tokens("0x1e+2 1E-2 1f") == [
            "number 0x1e @1:1", "symbol + @1:5", "number 2 @1:6", "number 1E-2 @1:8", "number 1f @1:13", "end  @1:15",
        ])
    }

    @Test func aDotIsANumberOnlyBeforeADigitAndALastDotIsASymbol() throws {
        #expect(try Self.tokens("a.b .") == ["identifier a @1:1", "symbol . @1:2", "identifier b @1:3", "symbol . @1:5", "end  @1:6"])
        #expect(try Self.tokens(".") == ["symbol . @1:1", "end  @1:2"])
        #expect(try Self.tokens("x: .5") == ["identifier x @1:1", "symbol : @1:2", "number .5 @1:4", "end  @1:6"], "a number that ends the text")
    }

    @Test func everyWhitespaceByteAndCommentIsSkippedAndOnlyNewlinesCountLines() throws {
        #expect(try Self.tokens(" \t\r\u{0B}\u{0C}x # c \" not a string\n#\n\ny") == ["identifier x @1:6", "identifier y @4:1", "end  @4:2"])
    }
}
