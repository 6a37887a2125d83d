/// Why text-format input could not be parsed, and where (1-based line and column).
public struct TextFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// A token other than the grammar allows here; `found` is its text ("" at the end of input).
        case unexpectedToken(found: String)
        /// A field name the message type does not declare.
        case unknownField(String)
        /// A value that does not fit the field's type (range, enum name, literal kind).
        case invalidValue(field: String, text: String)
        /// A quoted string runs to the end of the line or input.
        case unterminatedString
        /// A malformed `\x`, `\u` or `\U` escape.
        case invalidEscape
        /// A message type name the schema set does not declare.
        case unknownMessageType(String)
        /// Syntax this parser does not support (extensions, `Any` expansion).
        case unsupported(String)
        /// Messages nest deeper than the parser's limit.
        case nestingTooDeep
    }

    public let reason: Reason
    public let line: Int
    public let column: Int

    public init(_ reason: Reason, line: Int, column: Int) {
        self.reason = reason; self.line = line; self.column = column
    }

    public var description: String { "\(line):\(column): \(reason)" }
}
