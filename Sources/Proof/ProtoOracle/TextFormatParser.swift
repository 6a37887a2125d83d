import ProtoSchema

/// Parses protobuf text format into a `DynamicMessage`: everything `TextFormatPrinter` and
/// `protoc --decode` print, and the common variations of hand-written text.
///
/// Accepted: `name: value` and `name { … }` / `name < … >` (colon optional before a message);
/// `name: [v1, v2]` lists; `,` or `;` after a field; `#` comments; adjacent string literals
/// concatenated; integers in decimal, hex (`0x`) or octal (leading `0`); floats with an optional
/// `f` suffix and `inf`, `infinity`, `nan` in any case; bools as `true`/`false`/`t`/`f`/`1`/`0`;
/// enums by name or number; groups by type name or field name.
///
/// Unknown fields in protoc's `--decode` notation become `DynamicMessage.unknownFields`:
/// `N: 123` a varint, `N: 0x` + 8 hex digits a fixed32, + 16 hex digits a fixed64, `N: "…"` a
/// length-delimited field, and `N { … }` a length-delimited field holding the block's fields
/// (protoc prints groups the same way, so an unknown group reads back as length-delimited).
///
/// Map entries take defaults for a missing key or value; a later entry with the same key
/// replaces the earlier one. A singular field given twice keeps the last value (messages merge).
/// Not supported: extensions and expanded `Any` (`[type.googleapis.com/…] { … }`).
public struct TextFormatParser: Sendable {
    public let schemas: SchemaSet
    /// Deepest message nesting accepted (each level recurses once); 100 unless the initialiser is
    /// told otherwise.
    public var maxDepth: Int

    public init(schemas: SchemaSet, maxDepth: Int = 100) {
        self.schemas = schemas; self.maxDepth = maxDepth
    }

    /// Parses `text` as a message of type `fullName`.
    public func parse(_ text: String, as fullName: String) throws(TextFormatError) -> DynamicMessage {
        var state = try TextParserState(text, layouts: LayoutCache(schemas), maxDepth: maxDepth)
        guard let layout = state.layouts.layout(fullName) else {
            throw TextFormatError(.unknownMessageType(fullName), line: 1, column: 1)
        }
        var message = DynamicMessage(layout: layout)
        try state.parseFields(into: &message, closing: nil)
        return message
    }
}

/// The parser's cursor: one token of lookahead over the tokenizer.
private struct TextParserState {
    /// Source of tokens.
    var tokenizer: TextFormatTokenizer
    /// The next token, not yet consumed.
    var current: TextFormatTokenizer.Token
    /// Message-type lookups.
    var layouts: LayoutCache
    /// Limit on nested `{ }` blocks.
    let maxDepth: Int
    /// Current nesting of `{ }` blocks.
    var depth = 0

    init(_ text: String, layouts: LayoutCache, maxDepth: Int) throws(TextFormatError) {
        tokenizer = TextFormatTokenizer(text)
        current = try tokenizer.next()
        self.layouts = layouts
        self.maxDepth = maxDepth
    }

    mutating func advance() throws(TextFormatError) { current = try tokenizer.next() }

    func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol && current.text == symbol }

    mutating func consume(_ symbol: String) throws(TextFormatError) -> Bool {
        guard isSymbol(symbol) else { return false }
        try advance()
        return true
    }

    func unexpected() -> TextFormatError {
        TextFormatError(.unexpectedToken(found: current.text), line: current.line, column: current.column)
    }

    /// An invalid-value error located at `token` (the current token when nil).
    func invalid(_ field: String, _ text: String, at token: TextFormatTokenizer.Token? = nil) -> TextFormatError {
        let location = token ?? current
        return TextFormatError(.invalidValue(field: field, text: text), line: location.line, column: location.column)
    }

    /// Parses fields into `message` until `closing` (`}` or `>`), or the end of input when nil.
    mutating func parseFields(into message: inout DynamicMessage, closing: String?) throws(TextFormatError) {
        while true {
            if let closing, try consume(closing) { return }
            if current.kind == .end {
                guard closing == nil else { throw unexpected() }
                return
            }
            if current.kind == .number {
                message.unknownFields.append(try parseUnknownField())
            } else {
                try parseKnownField(into: &message)
            }
            if try !consume(",") { _ = try consume(";") }
        }
    }

    private mutating func parseKnownField(into message: inout DynamicMessage) throws(TextFormatError) {
        guard current.kind == .identifier else {
            if isSymbol("[") {
                throw TextFormatError(.unsupported("extension or Any expansion"), line: current.line, column: current.column)
            }
            throw unexpected()
        }
        let name = current.text
        let field = message.field(named: name)
            ?? message.schema.fields.first { $0.type == .group && $0.typeName?.split(separator: ".").last.map(String.init) == name }
        guard let field else { throw TextFormatError(.unknownField(name), line: current.line, column: current.column) }
        try advance()
        let hadColon = try consume(":")
        if hadColon, try consume("[") {
            if try consume("]") { return }
            repeat { try parseOneValue(field, into: &message) } while try consume(",")
            guard try consume("]") else { throw unexpected() }
        } else {
            try parseOneValue(field, into: &message)
        }
    }

    /// Parses one value (scalar or `{ … }` block) of `field` and stores it.
    private mutating func parseOneValue(_ field: FieldSchema, into message: inout DynamicMessage) throws(TextFormatError) {
        let closing: String? = isSymbol("{") ? "}" : isSymbol("<") ? ">" : nil
        if let entry = message.layout.mapEntries[field.number] {
            guard let closing, let entryLayout = layouts.layout(entry.entry.fullName) else { throw unexpected() }
            var decoded = DynamicMessage(layout: entryLayout)
            try parseBlock(into: &decoded, closing: closing)
            let key = decoded[number: 1].flatMap(MapKey.init) ?? ProtoValue.zero(of: entry.key.type).flatMap(MapKey.init)
            var value = decoded[number: 2] ?? ProtoValue.zero(of: entry.value.type)
            if value == nil, let typeName = entry.value.typeName { value = layouts.empty(typeName).map(ProtoValue.message) }
            guard let key, let value else { throw unexpected() }
            var map = message.map(number: field.number)
            map[key] = value
            message.setMap(number: field.number, map)
            return
        }
        if field.type == .message || field.type == .group {
            guard let closing, let typeName = field.typeName, let empty = layouts.empty(typeName) else {
                throw unexpected()
            }
            var sub = field.isRepeated ? empty : (message[number: field.number]?.messageValue ?? empty)
            try parseBlock(into: &sub, closing: closing)
            store(.message(sub), field, into: &message)
            return
        }
        let value = try parseScalar(field, enumType: message.layout.enumTypes[field.number])
        store(value, field, into: &message)
    }

    private mutating func parseBlock(into message: inout DynamicMessage, closing: String) throws(TextFormatError) {
        guard depth < maxDepth else {
            throw TextFormatError(.nestingTooDeep, line: current.line, column: current.column)
        }
        try advance()  // the opening brace
        depth += 1
        try parseFields(into: &message, closing: closing)
        depth -= 1
    }

    private func store(_ value: ProtoValue, _ field: FieldSchema, into message: inout DynamicMessage) {
        if field.isRepeated { message.append(number: field.number, value) } else { message.set(number: field.number, value) }
    }

    // MARK: Scalars

    private mutating func parseScalar(_ field: FieldSchema, enumType: EnumSchema?) throws(TextFormatError) -> ProtoValue {
        switch field.type {
        case .string, .bytes:
            guard current.kind == .string else { throw unexpected() }
            var bytes: [UInt8] = []
            while current.kind == .string {
                bytes += current.bytes
                try advance()
            }
            return field.type == .string ? .string(bytes) : .bytes(bytes)
        case .bool:
            let token = current
            try advance()
            switch token.text {
            case "true", "True", "t", "1": return .bool(true)
            case "false", "False", "f", "0": return .bool(false)
            default: throw invalid(field.name, token.text, at: token)
            }
        case .float, .double:
            return try parseFloatingPoint(field)
        case .enum:
            if current.kind == .identifier {
                let text = current.text
                guard let number = enumType?.values.first(where: { $0.name == text })?.number else {
                    throw invalid(field.name, text)
                }
                try advance()
                return .enumValue(number)
            }
            return .enumValue(Int32(truncatingIfNeeded: try parseSignedInteger(field, min: Int64(Int32.min), max: Int64(Int32.max))))
        case .int32, .sint32, .sfixed32:
            return .int32(Int32(truncatingIfNeeded: try parseSignedInteger(field, min: Int64(Int32.min), max: Int64(Int32.max))))
        case .int64, .sint64, .sfixed64:
            return .int64(try parseSignedInteger(field, min: Int64.min, max: Int64.max))
        case .uint32, .fixed32:
            let start = current
            let magnitude = try parseUnsignedInteger(field)
            guard magnitude <= UInt64(UInt32.max) else { throw invalid(field.name, String(magnitude), at: start) }
            return .uint32(UInt32(magnitude))
        case .uint64, .fixed64:
            return .uint64(try parseUnsignedInteger(field))
        case .message, .group:
            throw unexpected()
        }
    }

    private mutating func parseSignedInteger(_ field: FieldSchema, min: Int64, max: Int64) throws(TextFormatError) -> Int64 {
        let start = current
        let negative = try consume("-")
        let magnitude = try parseUnsignedInteger(field)
        if negative {
            guard magnitude <= min.magnitude else { throw invalid(field.name, "-\(magnitude)", at: start) }
            return magnitude == min.magnitude ? min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(max) else { throw invalid(field.name, String(magnitude), at: start) }
        return Int64(magnitude)
    }

    private mutating func parseUnsignedInteger(_ field: FieldSchema) throws(TextFormatError) -> UInt64 {
        guard current.kind == .number, let value = Self.integerValue(current.text) else {
            throw invalid(field.name, current.text)
        }
        try advance()
        return value
    }

    /// The value of a decimal, `0x` hex or leading-`0` octal literal; nil when malformed or above
    /// `UInt64.max`.
    static func integerValue(_ text: String) -> UInt64? {
        let lower = text.lowercased()
        if lower.hasPrefix("0x") { return UInt64(lower.dropFirst(2), radix: 16) }
        if lower.count > 1, lower.hasPrefix("0") { return UInt64(lower.dropFirst(), radix: 8) }
        return UInt64(lower, radix: 10)
    }

    private mutating func parseFloatingPoint(_ field: FieldSchema) throws(TextFormatError) -> ProtoValue {
        let negative = try consume("-")
        let text = current.text
        var double: Double?
        var float: Float?
        switch current.kind {
        case .identifier:
            switch text.lowercased() {
            case "inf", "infinity": double = .infinity; float = .infinity
            case "nan": double = .nan; float = .nan
            default: break
            }
        case .number:
            var literal = text
            if let last = literal.last, last == "f" || last == "F", !literal.lowercased().hasPrefix("0x") {
                literal.removeLast()
            }
            if let integer = Self.integerValue(literal), literal.lowercased().hasPrefix("0x") || !literal.contains(where: { ".eE".contains($0) }) {
                double = Double(integer); float = Float(integer)
            } else {
                double = Double(literal); float = Float(literal)
            }
        default: break
        }
        guard let double, let float else { throw invalid(field.name, text) }  // `current` is the bad token
        try advance()
        if field.type == .float { return .float(negative ? -float : float) }
        return .double(negative ? -double : double)
    }

    // MARK: Unknown fields (protoc --decode notation)

    private mutating func parseUnknownField() throws(TextFormatError) -> UnknownField {
        guard let raw = Self.integerValue(current.text), raw >= 1, raw <= UInt64(Wire.maxFieldNumber) else {
            throw invalid("unknown field", current.text)
        }
        let number = Int32(raw)
        try advance()
        let hadColon = try consume(":")
        if !hadColon || isSymbol("{") || isSymbol("<") {
            let closing = isSymbol("{") ? "}" : isSymbol("<") ? ">" : nil
            guard let closing else { throw unexpected() }
            guard depth < maxDepth else {
                throw TextFormatError(.nestingTooDeep, line: current.line, column: current.column)
            }
            try advance()
            depth += 1
            var content: [UInt8] = []
            while try !consume(closing) {
                guard current.kind == .number else { throw unexpected() }
                content += try parseUnknownField().encoded
                if try !consume(",") { _ = try consume(";") }
            }
            depth -= 1
            return .lengthDelimited(number, content)
        }
        if current.kind == .string {
            var bytes: [UInt8] = []
            while current.kind == .string { bytes += current.bytes; try advance() }
            return .lengthDelimited(number, bytes)
        }
        let negative = try consume("-")
        let text = current.text
        guard current.kind == .number, let value = Self.integerValue(text) else { throw invalid("\(number)", text) }
        try advance()
        if !negative, text.lowercased().hasPrefix("0x") {
            if text.count == 10 { return .fixed32(number, UInt32(truncatingIfNeeded: value)) }
            if text.count == 18 { return .fixed64(number, value) }
        }
        return .varint(number, negative ? 0 &- value : value)
    }
}
