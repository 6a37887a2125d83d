// The Swift expression a getter returns for an absent field: the proto2 `[default = ...]`, else
// zero, empty, or the enum's first value.

import ProtoSchema

struct FieldDefaults {
    let schema: SchemaSet

    func string(_ field: FieldSchema) -> String { (field.defaultValue ?? "").swiftLiteral }

    func bytes(_ field: FieldSchema) -> String {
        guard let text = field.defaultValue else { return "[]" }
        return "[" + Self.unescapeCBytes(text).map { "0x" + String($0, radix: 16) }.joined(separator: ", ") + "]"
    }

    /// The number of the enum default: the named `[default = NAME]`, else the first value.
    func enumNumber(_ field: FieldSchema) -> Int32 {
        let enumType = schema.enumType(field.typeName!)!
        return field.defaultValue.flatMap { name in enumType.values.first { $0.name == name }?.number }
            ?? enumType.defaultValue?.number ?? 0
    }

    func floating(_ field: FieldSchema) -> String {
        switch field.defaultValue {
        case nil: return "0"
        case "inf": return ".infinity"
        case "-inf": return "-.infinity"
        case "nan": return ".nan"
        case let text?: return text
        }
    }

    /// protoc writes a bytes default C-escaped (\n, \\, \", \', \ooo octal, \xhh).
    static func unescapeCBytes(_ text: String) -> [UInt8] {
        let chars = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < chars.count {
            guard chars[i] == UInt8(ascii: "\\"), i + 1 < chars.count else { out.append(chars[i]); i += 1; continue }
            let c = chars[i + 1]
            i += 2
            switch c {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(c - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, i < chars.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(chars[i]) {
                    value = value * 8 + Int(chars[i] - UInt8(ascii: "0")); i += 1; digits += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "x"):
                var value = 0
                while i < chars.count, let digit = Int(String(UnicodeScalar(chars[i])), radix: 16) { value = value * 16 + digit; i += 1 }
                out.append(UInt8(truncatingIfNeeded: value))
            default: out.append(c)
            }
        }
        return out
    }
}
