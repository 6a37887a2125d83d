import ProtoSchema

/// Prints a `DynamicMessage` in protobuf text format, in a form `protoc --encode=<full.Name>`
/// parses back to the same bytes the oracle encodes.
///
/// Output rules:
/// - Present fields in field-number order, one `name: value` line each; repeated fields as one
///   line per element; messages as `name {` … `}` indented by two spaces; groups under their type
///   name (as protoc prints them); map entries as repeated `name { key: … value: … }` blocks.
/// - Enums by their first declared name; numbers the enum does not declare (open enums) as
///   decimal numbers.
/// - Strings and bytes in double quotes; `\n \r \t \" \' \\` escaped by name, every other byte
///   outside printable ASCII as a three-digit octal escape, so any byte string round-trips.
/// - Floats and doubles as the shortest decimal that reads back to the same double (a float is
///   printed as its exact double value, so protoc's read-as-double-then-narrow yields the same
///   float), and `inf`, `-inf`, `nan`, `-nan`. Text cannot carry NaN payloads: every NaN reads
///   back as the canonical quiet NaN of its sign (see `isTextExact`).
/// - Unknown fields: omitted by default (protoc's text parser refuses them); with `.asComments`
///   they appear as `# <number>: <wire type> <hex payload>` comment lines, which protoc ignores.
public struct TextFormatPrinter: Sendable {
    /// How unknown fields are shown.
    public enum UnknownFieldPolicy: Sendable, Hashable {
        /// Left out of the text.
        case omit
        /// Written as `#` comment lines (informative; parsers ignore them).
        case asComments
    }

    public var unknownFields: UnknownFieldPolicy = .omit

    public init(unknownFields: UnknownFieldPolicy = .omit) { self.unknownFields = unknownFields }

    public func print(_ message: DynamicMessage) -> String {
        var out = ""
        printFields(of: message, indent: "", into: &out)
        return out
    }

    private func printFields(of message: DynamicMessage, indent: String, into out: inout String) {
        for field in message.layout.sortedFields {
            guard let content = message.content(number: field.number) else { continue }
            let name = field.type == .group ? shortName(field.typeName) ?? field.name : field.name
            switch content {
            case let .single(value):
                printValue(value, name: name, field: field, enumType: message.layout.enumTypes[field.number],
                           indent: indent, into: &out)
            case let .repeated(values):
                for value in values {
                    printValue(value, name: name, field: field, enumType: message.layout.enumTypes[field.number],
                               indent: indent, into: &out)
                }
            case let .map(map):
                guard let entry = message.layout.mapEntries[field.number] else { continue }
                let inner = indent + "  "
                for (key, value) in map.entries {
                    out += "\(indent)\(name) {\n"
                    printValue(key.value, name: "key", field: entry.key, enumType: nil, indent: inner, into: &out)
                    printValue(value, name: "value", field: entry.value, enumType: entry.valueEnum,
                               indent: inner, into: &out)
                    out += "\(indent)}\n"
                }
            }
        }
        if unknownFields == .asComments {
            for unknown in message.unknownFields {
                out += "\(indent)# \(unknown.number): \(unknown.wireType) \(hex(unknown.payload))\n"
            }
        }
    }

    private func printValue(
        _ value: ProtoValue, name: String, field: FieldSchema, enumType: EnumSchema?, indent: String,
        into out: inout String
    ) {
        if case let .message(inner) = value {
            out += "\(indent)\(name) {\n"
            printFields(of: inner, indent: indent + "  ", into: &out)
            out += "\(indent)}\n"
            return
        }
        out += "\(indent)\(name): \(Self.scalarText(value, enumType: enumType))\n"
    }

    /// The text of a scalar or enum value.
    static func scalarText(_ value: ProtoValue, enumType: EnumSchema?) -> String {
        switch value {
        case let .int32(v): return String(v)
        case let .int64(v): return String(v)
        case let .uint32(v): return String(v)
        case let .uint64(v): return String(v)
        case let .bool(v): return v ? "true" : "false"
        case let .float(v): return doubleText(Double(v))
        case let .double(v): return doubleText(v)
        case let .string(bytes), let .bytes(bytes): return quoted(bytes)
        case let .enumValue(v): return enumType?.name(for: v) ?? String(v)
        case .message: return "{}"
        }
    }

    static func doubleText(_ v: Double) -> String {
        if v.isNaN { return v.sign == .minus ? "-nan" : "nan" }
        if v.isInfinite { return v < 0 ? "-inf" : "inf" }
        return v.description  // shortest digits that read back to exactly `v`
    }

    /// A double-quoted literal with C-style escapes; non-printable bytes as three octal digits.
    static func quoted(_ bytes: [UInt8]) -> String {
        var out = "\""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"): out += "\\n"
            case UInt8(ascii: "\r"): out += "\\r"
            case UInt8(ascii: "\t"): out += "\\t"
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "'"): out += "\\'"
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "\\"
                out += String(byte >> 6)
                out += String((byte >> 3) & 7)
                out += String(byte & 7)
            }
        }
        return out + "\""
    }

    private func shortName(_ fullName: String?) -> String? {
        fullName.map { name in name.split(separator: ".").last.map(String.init) ?? name }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return out
    }
}

extension DynamicMessage {
    /// The message in text format (unknown fields omitted); see `TextFormatPrinter`.
    public var textFormat: String { TextFormatPrinter().print(self) }

    /// True when text carries this message exactly both ways through protoc: no unknown fields
    /// anywhere, and every NaN is the positive canonical quiet NaN (`Float.nan` / `Double.nan`).
    /// protoc reads `-nan` with its sign but prints every NaN as `nan`, and text has no NaN
    /// payloads. Only such messages can take part in a text-based cross-check with protoc.
    public var isTextExact: Bool {
        guard unknownFields.isEmpty else { return false }
        for number in presentFieldNumbers {
            switch content(number: number) {
            case let .single(value)?: if !Self.isTextExact(value) { return false }
            case let .repeated(values)?: if !values.allSatisfy(Self.isTextExact) { return false }
            case let .map(map)?: if !map.entries.allSatisfy({ Self.isTextExact($0.value) }) { return false }
            case nil: continue
            }
        }
        return true
    }

    private static func isTextExact(_ value: ProtoValue) -> Bool {
        switch value {
        case let .float(v): return !v.isNaN || v.bitPattern == Float.nan.bitPattern
        case let .double(v): return !v.isNaN || v.bitPattern == Double.nan.bitPattern
        case let .message(inner): return inner.isTextExact
        default: return true
        }
    }
}
