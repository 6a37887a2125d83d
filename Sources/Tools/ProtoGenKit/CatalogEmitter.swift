// Emits a schema's catalog module (`protogen catalog`): every message type by full name (dispatch
// for the proof, the fuzz targets and the live-peer fuzzer) and, for every exemplar the oracle
// defines (`Exemplars.all`: every message, every oneof variant, every edge value), Swift source
// that builds the same message through the generated facades' builders, named by its oracle
// exemplar name. FacadeProof then compares what the facades write with what the oracle writes.
//
// What must stay true:
// - Values are spelled exactly: integers with their Swift type, floats and doubles by bit pattern
//   (NaN payloads, -0.0 and infinities survive), enums by number, strings as Swift literals and
//   bytes as `[UInt8]` literals; large bytes values become one shared constant per distinct value,
//   written as hex of its shortest period plus the total length, so the constant is exactly the
//   exemplar's bytes and the source stays small.
// - Every Swift name comes from `FacadePlan` (types, members, oneof enums and cases): this file
//   never derives a name itself.
// - Exemplars the facades cannot express are listed in the catalog's `exclusions` with the
//   reason, never dropped silently.
// - Output is deterministic: exemplars in `Exemplars.all` order, files in schema file order.

import ProtoOracle
import ProtoSchema

struct CatalogEmitter {
    let plan: FacadePlan
    /// Module of the facades the generated code builds with (`import <facadeModule>`).
    let facadeModule: String
    /// The schema folder relative to the package root, recorded for the tests (`--proto-dir-hint`).
    let protoDirectoryHint: String?
    var schema: SchemaSet { plan.schema }

    /// Bytes values longer than this become shared constants in the support file.
    static let inlineBytesLimit = 256
    /// Name of the support file (table type, helpers, shared constants, the combined table).
    static let supportFileName = "FacadeCatalog.pb.swift"

    func files() throws(GeneratorError) -> [GeneratedFile] {
        var constants = SharedBytes()
        var exclusions: [(name: String, reason: String)] = []
        var result: [GeneratedFile] = []
        var tables: [String] = []
        var sourceFiles: [String] = []
        let exemplars = Exemplars(schemas: schema)

        for file in schema.files {
            let messages = schema.messages.filter {
                $0.file == file.name && !$0.isMapEntry && plan.emitted.contains($0.fullName)
            }
            if messages.isEmpty { continue }
            var entries: [String] = []
            var functions = CodeWriter()
            var index = 0
            for message in messages {
                if plan.namespaces.contains(message.fullName) {
                    exclusions.append((message.fullName, "no fields: the facade is a caseless enum namespace, which cannot be built or encoded"))
                    continue
                }
                for exemplar in exemplars.all(for: message) {
                    var writer = CodeWriter()
                    let typeName = plan.swiftName(message.fullName)
                    let function = "exemplar\(index)"
                    writer.line("/// `\(exemplar.name)`")
                    writer.open("private func \(function)() -> \(typeName) {")
                    do {
                        try emitBuild(exemplar.message, into: &writer, constants: &constants)
                    } catch let reason {
                        exclusions.append((exemplar.name, reason.text))
                        continue
                    }
                    writer.close("}")
                    functions.append(writer)
                    functions.line()
                    entries.append("FacadeExemplar(\(exemplar.name.swiftLiteral), \(message.fullName.swiftLiteral), \(function)),")
                    index += 1
                }
            }
            let base = Self.baseName(file.name)
            let table = "exemplars_" + Self.identifier(base)
            var out = CodeWriter()
            out.line("\(generatedHeaderPrefix)\(file.name).")
            out.line("// Catalog: the oracle's exemplars of this file, built through the facades.")
            out.line("// Regenerate with: make proto")
            out.line("// swiftlint:disable all")
            out.line()
            out.line("import FacadeProof")
            out.line("import \(facadeModule)")
            out.line()
            out.line("/// The exemplars of `\(file.name)`, in the oracle's order.")
            out.open("let \(table): [FacadeExemplar] = [")
            for entry in entries { out.line(entry) }
            out.close("]")
            out.line()
            out.append(functions)
            result.append(GeneratedFile(name: base + ".exemplars.pb.swift", contents: out.text.trimmingTrailingBlankLines + "\n"))
            tables.append(table)
            sourceFiles.append(file.name)
        }
        result.append(supportFile(tables: tables, sourceFiles: sourceFiles, constants: constants, exclusions: exclusions))
        return result
    }

    // MARK: Support file

    private func supportFile(tables: [String], sourceFiles: [String], constants: SharedBytes,
                             exclusions: [(name: String, reason: String)]) -> GeneratedFile {
        var out = CodeWriter()
        out.line("\(generatedHeaderPrefix)the exemplars of \(sourceFiles.joined(separator: ", ")).")
        out.line("// The schema's facade catalog: message types by full name, exemplars, shared values. Regenerate with: make proto")
        out.line("// swiftlint:disable all")
        out.line()
        out.line("import FacadeProof")
        out.line("import \(facadeModule)")
        out.line()
        out.line("/// Every message type of the facades (sorted by full name) and every exemplar built through them.")
        out.open("public let facadeCatalog = FacadeCatalog(")
        out.open("messageTypes: [")
        for message in catalogMessages() {
            out.line("FacadeMessageType(\(message.fullName.swiftLiteral), \(plan.swiftName(message.fullName)).self),")
        }
        out.close("],")
        out.line("exemplars: " + (tables.isEmpty ? "[]" : tables.joined(separator: " + ")) + ",")
        out.open("exclusions: [")
        for exclusion in exclusions {
            out.line("FacadeExemplarExclusion(name: \(exclusion.name.swiftLiteral), reason: \(exclusion.reason.swiftLiteral)),")
        }
        out.close("],")
        out.line("protoDirectoryHint: \(protoDirectoryHint.map(\.swiftLiteral) ?? "nil")")
        out.close(")")
        out.line()
        out.line("/// `count` bytes repeating the bytes spelled by `hex` (the value's shortest period).")
        out.open("func exemplarBytes(hex: String, count: Int) -> [UInt8] {")
        out.line("let digits = Array(hex.utf8)")
        out.line("func nibble(_ c: UInt8) -> UInt8 { c <= UInt8(ascii: \"9\") ? c - UInt8(ascii: \"0\") : c - UInt8(ascii: \"a\") + 10 }")
        out.line("let period = stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }")
        out.line("return (0..<count).map { period[$0 % period.count] }")
        out.close("}")
        for (index, value) in constants.values.enumerated() {
            out.line()
            out.line("/// Shared bytes value \(index): \(value.bytes.count) bytes, period \(value.period).")
            let hex = value.bytes[0..<value.period].map(Self.hex).joined()
            out.line("let exemplarBytes\(index): [UInt8] = exemplarBytes(hex: \"\(hex)\", count: \(value.bytes.count))")
        }
        return GeneratedFile(name: Self.supportFileName, contents: out.text)
    }

    /// The messages a facade can decode: emitted, not map entries, not namespaces; by full name.
    private func catalogMessages() -> [MessageSchema] {
        schema.messages.filter { !$0.isMapEntry && plan.emitted.contains($0.fullName) && !plan.namespaces.contains($0.fullName) }
            .sorted { $0.fullName < $1.fullName }
    }

    // MARK: Builders

    /// Why a value cannot be written through the facades.
    struct Inexpressible: Error { let text: String }

    /// Writes `return Type.with { ... }` for a message (the body of its function).
    private func emitBuild(_ message: DynamicMessage, into out: inout CodeWriter, constants: inout SharedBytes) throws(Inexpressible) {
        let lines = try buildExpression(message, constants: &constants)
        out.line("return " + lines[0])
        for line in lines.dropFirst() { out.line(line) }
    }

    /// The expression building `message`, as lines (the first unindented, the rest relative).
    private func buildExpression(_ message: DynamicMessage, constants: inout SharedBytes) throws(Inexpressible) -> [String] {
        let typeName = plan.swiftName(message.fullName)
        let schema = message.schema
        let members = plan.members(of: schema)
        var body: [String] = []
        for field in schema.fieldsByNumber {
            guard let content = message.content(number: field.number) else { continue }
            if plan.isIgnored(field, in: schema) {
                throw Inexpressible(text: "field \(field.name) is FT_IGNORE (an honoured nanopb option): the facades do not carry it")
            }
            var value: [String]
            var target = "$0." + Naming.escaped(members.field[field.number]!)
            switch content {
            case .single(let single):
                value = try expression(single, field: field, constants: &constants)
                if let (index, oneof) = plan.realOneof(of: field, in: schema) {
                    target = "$0." + Naming.escaped(members.oneof[index]!)
                    let oneofType = plan.oneofTypeName(messageName: typeName, oneof: oneof)
                    value[0] = "\(oneofType).\(Naming.escaped(members.oneofCase[field.number]!))(" + value[0]
                    value[value.count - 1] += ")"
                }
            case .repeated(let values):
                var items: [[String]] = []
                for item in values { items.append(try expression(item, field: field, constants: &constants)) }
                value = list(items, open: "[", close: "]")
            case .map(let map):
                guard let entry = field.typeName.flatMap(self.schema.message), let keyField = entry.mapKey,
                      let valueField = entry.mapValue else { continue }
                var items: [[String]] = []
                for (key, item) in map.entries {
                    var pair = try expression(key.value, field: keyField, constants: &constants)
                    let rendered = try expression(item, field: valueField, constants: &constants)
                    pair[pair.count - 1] += ": " + rendered[0]
                    pair += rendered.dropFirst()
                    items.append(pair)
                }
                value = list(items, open: "[", close: "]")
            }
            body.append("\(target) = " + value[0])
            body += value.dropFirst()
        }
        if body.isEmpty { return ["\(typeName)()"] }
        return ["\(typeName).with {"] + body.map { "    " + $0 } + ["}"]
    }

    /// Elements joined into a literal: on one line when every element is one line, else one per line.
    private func list(_ items: [[String]], open: String, close: String) -> [String] {
        if items.allSatisfy({ $0.count == 1 }) {
            return [open + items.map { $0[0] }.joined(separator: ", ") + close]
        }
        var lines = [open]
        for item in items {
            var item = item
            item[item.count - 1] += ","
            lines += item.map { "    " + $0 }
        }
        return lines + [close]
    }

    /// One value of `field`'s type as a Swift expression (lines; more than one for messages).
    private func expression(_ value: ProtoValue, field: FieldSchema, constants: inout SharedBytes) throws(Inexpressible) -> [String] {
        switch value {
        case .int32(let v): return [try integer(Int64(v), field: field)]
        case .int64(let v): return [try integer(v, field: field)]
        case .uint32(let v): return [try integer(UInt64(v), field: field)]
        case .uint64(let v): return [try integer(v, field: field)]
        case .bool(let v): return [v ? "true" : "false"]
        case .float(let v): return ["Float(bitPattern: 0x\(Self.hex(v.bitPattern, digits: 8)))"]
        case .double(let v): return ["Double(bitPattern: 0x\(Self.hex(v.bitPattern, digits: 16)))"]
        case .enumValue(let v): return ["\(plan.swiftName(field.typeName!))(rawValue: \(v))"]
        case .string(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw Inexpressible(text: "field \(field.name) holds a string that is not valid UTF-8; the facades' String cannot carry it")
            }
            if bytes.contains(0) {
                throw Inexpressible(text: "field \(field.name) holds a string with an embedded NUL; nanopb strings are C strings")
            }
            return [text.swiftLiteral]
        case .bytes(let bytes):
            if bytes.count > Self.inlineBytesLimit { return ["exemplarBytes\(constants.index(of: bytes))"] }
            return ["[" + bytes.map { "0x" + Self.hex($0) }.joined(separator: ", ") + "]"]
        case .message(let inner):
            return try buildExpression(inner, constants: &constants)
        }
    }

    /// An integer spelled with the field's Swift type from the plan (narrower under an honoured
    /// `int_size`); a value that does not fit cannot be built through the facades.
    private func integer<T: BinaryInteger>(_ value: T, field: FieldSchema) throws(Inexpressible) -> String {
        let type = plan.valueKind(field, in: schema.message(field.scope)!).swiftType
        let fits: Bool
        switch type {
        case "Int8": fits = Int8(exactly: value) != nil
        case "Int16": fits = Int16(exactly: value) != nil
        case "Int32": fits = Int32(exactly: value) != nil
        case "UInt8": fits = UInt8(exactly: value) != nil
        case "UInt16": fits = UInt16(exactly: value) != nil
        case "UInt32": fits = UInt32(exactly: value) != nil
        case "Int64": fits = Int64(exactly: value) != nil
        default: fits = UInt64(exactly: value) != nil
        }
        if !fits { throw Inexpressible(text: "field \(field.name) holds \(value), which does not fit its C type \(type) (int_size)") }
        return "\(type)(\(value))"
    }

    // MARK: Helpers

    static func hex(_ byte: UInt8) -> String { hex(UInt64(byte), digits: 2) }

    static func hex<T: FixedWidthInteger>(_ value: T, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// `rtm/data.proto` -> `rtm_data`.
    static func baseName(_ file: String) -> String {
        let name = file.replacingAll("/", with: "_")
        return name.hasSuffix(".proto") ? String(name.dropLast(6)) : name
    }

    /// A Swift identifier fragment: every character outside [A-Za-z0-9_] becomes `_`.
    static func identifier(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
    }
}

/// Large bytes values, each stored once with its shortest period.
struct SharedBytes {
    struct Value { let bytes: [UInt8]; let period: Int }
    private(set) var values: [Value] = []
    private var indexByBytes: [[UInt8]: Int] = [:]

    mutating func index(of bytes: [UInt8]) -> Int {
        if let known = indexByBytes[bytes] { return known }
        values.append(Value(bytes: bytes, period: Self.shortestPeriod(bytes)))
        indexByBytes[bytes] = values.count - 1
        return values.count - 1
    }

    /// The smallest p with bytes[i] == bytes[i - p] for every i >= p (Knuth-Morris-Pratt failure
    /// function: p = n - longest proper border). p == n when the value does not repeat.
    static func shortestPeriod(_ bytes: [UInt8]) -> Int {
        guard !bytes.isEmpty else { return 0 }
        var border = [Int](repeating: 0, count: bytes.count)
        var k = 0
        for i in 1..<bytes.count {
            while k > 0 && bytes[i] != bytes[k] { k = border[k - 1] }
            if bytes[i] == bytes[k] { k += 1 }
            border[i] = k
        }
        return bytes.count - border[bytes.count - 1]
    }
}

extension CodeWriter {
    /// Appends another writer's text at this writer's indentation.
    mutating func append(_ other: CodeWriter) {
        for line in other.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() { self.line(String(line)) }
    }
}

extension String {
    var trimmingTrailingBlankLines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
