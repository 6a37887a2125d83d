/// Splits protobuf text format into tokens: identifiers, numbers, quoted strings (unescaped to
/// bytes) and single-character symbols. `#` starts a comment that runs to the end of the line.
///
/// Invariant: `index` only grows, and every `next()` call that returns a token consumes at least
/// one byte, so tokenizing always terminates.
struct TextFormatTokenizer {
    enum Kind: Equatable {
        case identifier
        /// A numeric literal as written, sign excluded (`-` is a separate symbol).
        case number
        /// A quoted string; `bytes` holds the unescaped content.
        case string
        case symbol
        case end
    }

    struct Token {
        var kind: Kind
        /// The source text (for strings: the raw literal including quotes).
        var text: String
        /// Unescaped content of a string token; empty otherwise.
        var bytes: [UInt8] = []
        var line: Int
        var column: Int
    }

    private let input: [UInt8]
    /// Next unread byte.
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String) { input = Array(text.utf8) }

    mutating func next() throws(TextFormatError) -> Token {
        skipSpaceAndComments()
        let column = index - lineStart + 1
        guard index < input.count else { return Token(kind: .end, text: "", line: line, column: column) }
        let start = index
        let byte = input[index]
        if isLetter(byte) || byte == UInt8(ascii: "_") {
            while index < input.count, isLetter(input[index]) || isDigit(input[index]) || input[index] == UInt8(ascii: "_") {
                index += 1
            }
            return Token(kind: .identifier, text: text(start), line: line, column: column)
        }
        if isDigit(byte) || (byte == UInt8(ascii: ".") && index + 1 < input.count && isDigit(input[index + 1])) {
            index += 1
            while index < input.count {
                let c = input[index]
                let previous = input[index - 1] | 0x20  // lower-cased
                let isExponentSign = (c == UInt8(ascii: "+") || c == UInt8(ascii: "-")) && previous == UInt8(ascii: "e")
                    && !(input[start] == UInt8(ascii: "0") && index > start + 1 && input[start + 1] | 0x20 == UInt8(ascii: "x"))
                guard isLetter(c) || isDigit(c) || c == UInt8(ascii: ".") || isExponentSign else { break }
                index += 1
            }
            return Token(kind: .number, text: text(start), line: line, column: column)
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            let bytes = try quotedString(quote: byte, column: column)
            return Token(kind: .string, text: text(start), bytes: bytes, line: line, column: column)
        }
        index += 1
        return Token(kind: .symbol, text: text(start), line: line, column: column)
    }

    private mutating func skipSpaceAndComments() {
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "#") {
                while index < input.count, input[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "\n") {
                index += 1; line += 1; lineStart = index
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                        || byte == 0x0B || byte == 0x0C {
                index += 1
            } else {
                return
            }
        }
    }

    /// Reads a quoted literal starting at the opening quote and returns its unescaped bytes.
    /// Escapes: `\n \r \t \a \b \f \v \\ \' \" \?`, octal `\0`–`\377` (1–3 digits), hex `\xH`–`\xHH`,
    /// and `\uXXXX` / `\UXXXXXXXX` (written as UTF-8).
    private mutating func quotedString(quote: UInt8, column: Int) throws(TextFormatError) -> [UInt8] {
        let startLine = line
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < input.count, input[index] != UInt8(ascii: "\n") else {
                throw TextFormatError(.unterminatedString, line: startLine, column: column)
            }
            let byte = input[index]
            index += 1
            if byte == quote { return out }
            guard byte == UInt8(ascii: "\\") else { out.append(byte); continue }
            guard index < input.count else { throw TextFormatError(.unterminatedString, line: startLine, column: column) }
            let escape = input[index]
            index += 1
            switch escape {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(escape - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard index < input.count, input[index] >= UInt8(ascii: "0"), input[index] <= UInt8(ascii: "7") else { break }
                    value = value * 8 + UInt32(input[index] - UInt8(ascii: "0"))
                    index += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                var value: UInt32 = 0
                var digits = 0
                while digits < 2, index < input.count, let digit = hexValue(input[index]) {
                    value = value * 16 + digit; index += 1; digits += 1
                }
                guard digits > 0 else { throw TextFormatError(.invalidEscape, line: line, column: index - lineStart) }
                out.append(UInt8(value))
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let count = escape == UInt8(ascii: "u") ? 4 : 8
                var value: UInt32 = 0
                for _ in 0..<count {
                    guard index < input.count, let digit = hexValue(input[index]) else {
                        throw TextFormatError(.invalidEscape, line: line, column: index - lineStart)
                    }
                    value = value &* 16 &+ digit; index += 1
                }
                guard let scalar = Unicode.Scalar(value) else {
                    throw TextFormatError(.invalidEscape, line: line, column: index - lineStart)
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                out.append(escape)  // \\ \' \" \? and any other escaped character stand for themselves
            }
        }
    }

    private func text(_ start: Int) -> String { String(decoding: input[start..<index], as: UTF8.self) }
    private func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    private func hexValue(_ b: UInt8) -> UInt32? {
        if isDigit(b) { return UInt32(b - UInt8(ascii: "0")) }
        let lower = b | 0x20
        if lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "f") { return UInt32(lower - UInt8(ascii: "a") + 10) }
        return nil
    }
}
