// Swift and nanopb C names for schema elements.
//
// Swift names follow protoc-gen-swift's conventions, so call sites read the same as with
// SwiftProtobuf: the type prefix is the package with each component upper-camel-cased and joined by
// `_` (or `option swift_prefix`, which wins, even when empty); fields are lowerCamelCase, splitting
// on underscores, case changes and digit runs, with `url`, `http`, `https` and `id` upper-cased
// inside a name; enum cases drop the enum's own name as a prefix. Nested types are flat
// (`Pkg_Outer_Inner`, not `Pkg_Outer.Inner`): every message is the one generic `NanopbMsg`, and
// constrained extensions of one generic cannot each declare nested types of the same name.
//
// C names follow nanopb's generator: package components and message path joined by `_`.

import ProtoSchema

package enum Naming {
    /// The Swift type prefix of a file's types: `a.b_c` -> `A_BC_`.
    static func typePrefix(_ file: FileSchema) -> String {
        if let prefix = file.swiftPrefix { return prefix }
        if file.package.isEmpty { return "" }
        var prefix = ""
        var upperNext = true
        for character in file.package {
            switch character {
            case "_": upperNext = true
            case ".": upperNext = true; prefix += "_"
            default:
                if prefix.isEmpty && character.isNumber { prefix += "_" }
                prefix += upperNext ? character.uppercased() : String(character)
                upperNext = false
            }
        }
        return prefix + "_"
    }

    /// The path of a type below its package: `pkg.Outer.Inner` -> ["Outer", "Inner"].
    static func relativePath(fullName: String, package: String) -> [String] {
        let relative = package.isEmpty ? fullName : String(fullName.dropFirst(package.count + 1))
        return relative.split(separator: ".").map(String.init)
    }

    /// Flat Swift type name; `disambiguator` ("Message" / "Enum") is appended to reserved names.
    static func swiftTypeName(prefix: String, path: [String], disambiguator: String) -> String {
        let name = prefix + path.joined(separator: "_")
        return reservedTypeNames.contains(name) || name.allSatisfy({ $0 == "_" }) ? name + disambiguator : name
    }

    /// nanopb's C name for a message or enum: `a.b` + `Outer.Inner` -> `a_b_Outer_Inner`, after
    /// the plan's C renames (see `cIdentifier`) of the top-level type name.
    static func cTypeName(fullName: String, package: String) -> String {
        let path = relativePath(fullName: fullName, package: package)
        var parts = package.isEmpty ? [] : package.split(separator: ".").map(String.init)
        if let top = path.first { parts.append(package.isEmpty ? cTypeIdentifier(top) : top) }
        parts += path.dropFirst()
        return parts.joined(separator: "_")
    }

    // MARK: C identifiers

    /// The C identifier nanopb writes for a proto name that stands alone in C: a field (struct
    /// member), a oneof (union member; `which_<name>` is always safe), and a top-level type of a
    /// file without a package (the C type name). THE RULE: a name in `reservedCIdentifiers` gets
    /// one `_` appended. Every other C name nanopb writes is joined from several parts
    /// (`pkg_Msg`, `Msg_Inner`, `Enum_VALUE`) and cannot be a keyword. The plan applies the rule
    /// on both sides: the descriptor handed to nanopb is renamed accordingly (DescriptorSetWriter),
    /// and the facades access the renamed members. The wire format does not carry names, so
    /// the encoding is unchanged.
    static func cIdentifier(_ name: String) -> String {
        reservedCIdentifiers.contains(name) ? name + "_" : name
    }

    /// The C name of a top-level type of a file without a package (the only C type name nanopb
    /// writes from one proto name): `cIdentifier`'s rule, over `reservedCIdentifiers` plus the
    /// Swift type names the generated Swift spells unqualified (`reservedTypeNames`: `String`,
    /// `Int32`, `Bool`, `NanopbMsg`, ...). The facade module imports the C module, and a C type
    /// named `String` would shadow Swift's own there, so `message String` is the C `String_`.
    static func cTypeIdentifier(_ name: String) -> String {
        reservedCIdentifiers.contains(name) || reservedTypeNames.contains(name) ? name + "_" : name
    }

    /// Names nanopb's C output cannot use as a standalone identifier: C (C23) and C++ keywords,
    /// macros of the headers generated code includes or the compiler predefines in GNU mode,
    /// and names the Swift importer cannot reach as a struct member (`x.self`, `x.Type`,
    /// `x.Protocol`, `x.init` mean something else).
    static let reservedCIdentifiers: Set<String> = [
        // C keywords (through C23)
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
        "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
        "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
        "volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary",
        "_Noreturn", "_Static_assert", "_Thread_local", "_BitInt", "_Decimal32", "_Decimal64", "_Decimal128",
        "alignas", "alignof", "bool", "constexpr", "false", "nullptr", "static_assert", "thread_local", "true",
        "typeof", "typeof_unqual",
        // C++ keywords and alternative tokens
        "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t", "char32_t", "class", "compl",
        "concept", "const_cast", "consteval", "constinit", "co_await", "co_return", "co_yield", "decltype",
        "delete", "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace", "new", "noexcept",
        "not", "not_eq", "operator", "or", "or_eq", "private", "protected", "public", "reinterpret_cast",
        "requires", "static_cast", "template", "this", "throw", "try", "typeid", "typename", "using", "virtual",
        "wchar_t", "xor", "xor_eq",
        // Macros: <stddef.h>, <stdbool.h>, <stdint.h> sizes, and GNU-mode predefines
        "NULL", "offsetof", "errno", "assert", "linux", "unix", "i386",
        // Unreachable as a member from Swift
        "self", "Type", "Protocol", "init", "deinit", "super",
    ]

    /// protoc-gen-swift's camel-casing of a proto identifier.
    static func camelCase(_ name: String, initialUpper: Bool) -> String {
        var result = ""
        var segment = ""  // collected in lower case
        var last: CharacterClass = .none
        func flush() {
            guard !segment.isEmpty else { return }
            if result.isEmpty && !initialUpper {
                result += segment
            } else if ["url", "http", "https", "id"].contains(segment) {
                result += segment.uppercased()
            } else {
                result += segment.prefix(1).uppercased() + segment.dropFirst()
            }
            segment = ""
        }
        for character in name {
            let cls = CharacterClass(character)
            switch cls {
            case .digit:
                if last != .digit { flush() }
                if result.isEmpty { result += "_" }
                segment.append(character)
            case .upper:
                if last != .upper { flush() }
                segment += character.lowercased()
            case .lower:
                if last != .lower && last != .upper { flush() }
                segment.append(character)
            case .underscore:
                flush()
                if last == .underscore { result += "_" }
            case .none:
                flush()
                result += "_"
            }
            last = cls
        }
        flush()
        if last == .underscore { result += "_" }
        return result
    }

    private enum CharacterClass {
        case digit, lower, upper, underscore, none
        init(_ c: Character) {
            switch c {
            case "0"..."9": self = .digit
            case "a"..."z": self = .lower
            case "A"..."Z": self = .upper
            case "_": self = .underscore
            default: self = .none
            }
        }
    }

    /// Enum case name: strip the enum's name as a prefix (ignoring case and underscores) when
    /// what remains starts with a letter, then lowerCamelCase.
    static func enumCaseName(_ value: String, enumName: String) -> String {
        let stripped = stripPrefix(enumName, from: value) ?? value
        var name = camelCase(stripped, initialUpper: false)
        if reservedEnumCases.contains(name) { name += "_" }
        return name
    }

    private static func stripPrefix(_ prefix: String, from value: String) -> String? {
        let wanted = Array(prefix.lowercased().filter { $0 != "_" })
        let chars = Array(value)
        var index = 0
        for expected in wanted {
            while index < chars.count && chars[index] == "_" { index += 1 }
            guard index < chars.count, Character(chars[index].lowercased()) == expected else { return nil }
            index += 1
        }
        while index < chars.count && chars[index] == "_" { index += 1 }
        guard index < chars.count, chars[index].isLetter else { return nil }
        return String(chars[index...])
    }

    /// A property name for a field or oneof (not yet de-duplicated within its message).
    static func propertyName(_ protoName: String) -> String {
        let name = camelCase(protoName, initialUpper: false)
        return reservedPropertyNames.contains(name) ? name + "_p" : name
    }

    /// `name` as written in Swift source: backticks around keywords.
    package static func escaped(_ name: String) -> String {
        swiftKeywords.contains(name) ? "`\(name)`" : name
    }

    /// Upper-cases the first character: `hasX` / `clearX` / oneof enum type names.
    static func upperFirst(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Swift keywords that need backticks as identifiers (declarations, statements, expressions).
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "_", "consume", "copy", "borrowing", "consuming", "some", "any",
    ]

    /// Names a property must not take: members of NanopbMsg / Builder / the standard protocols
    /// it conforms to, and names that change meaning after a dot.
    static let reservedPropertyNames: Set<String> = [
        "description", "debugDescription", "hashValue", "hash", "isOwning", "serializedBytes", "owned",
        "modifying", "with", "build", "init", "self", "Type", "Protocol", "dynamicType", "Builder",
        "_pointer", "_box", "_owner", "_view", "_views", "_copyBox", "_descriptor", "_emptyBox",
    ]

    /// Static members of an open-enum struct that a case must not shadow.
    static let reservedEnumCases: Set<String> = [
        "rawValue", "init", "self", "description", "debugDescription", "hashValue", "hash", "allCases",
        "dynamicType", "Type", "Protocol",
    ]

    /// Type names a generated type must not take (Swift keywords and common standard types).
    static let reservedTypeNames: Set<String> = swiftKeywords.union([
        "RawRepresentable", "CustomStringConvertible", "Hasher", "Collection", "Sequence", "Substring",
        "Type", "Protocol", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
        "UInt64", "Float", "Double", "Bool", "String", "Character", "Array", "Dictionary", "Set", "Optional",
        "Error", "Never", "Void", "Result", "Sendable", "Hashable", "Equatable", "NanopbMsg", "NanopbBox",
        "NanopbStorage", "NanopbError", "NanopbField", "NanopbRuntime",
    ])
}

extension String {
    /// Replaces every occurrence of `target` (a Foundation-free replacingOccurrences).
    package func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }

    /// A Swift string literal for arbitrary text.
    package var swiftLiteral: String {
        var out = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
