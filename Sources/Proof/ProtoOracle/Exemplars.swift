/// Exemplars: deterministic messages for every message type of a schema, for byte-identical
/// comparisons between the oracle, protoc and generated code. The same schema always yields the
/// same exemplars with the same names, in the same order.
///
/// ## Names
/// - `pkg.Msg` — the full exemplar.
/// - `pkg.Msg#oneof=member` — the full exemplar with `member` chosen for the real oneof `oneof`;
///   one per member of every real oneof (the first member's variant equals the full exemplar and
///   is listed anyway, so every variant has its own case).
/// - `pkg.Msg!edge` — an edge exemplar (`EdgeKind.rawValue`), only when the edge touches at least
///   one field of `pkg.Msg` itself.
///
/// ## Full exemplar
/// Every field is set, except the members of a real oneof other than its first declared member.
/// Proto3 `optional` fields are set like any other field. With `n` the field number and `s` the
/// field name:
/// - `int32`, `int64`, `uint32`, `uint64`, `fixed32`, `fixed64`: `n`
/// - `sint32`, `sint64`, `sfixed32`, `sfixed64`: `-n`
/// - `float`: `Float(n) + 0.5`; `double`: `Double(n) + 0.25`
/// - `bool`: `true`
/// - `string`: `s`; `bytes`: the UTF-8 bytes of `s`
/// - enum: the first declared value whose number is non-zero, or the first value if none is
/// - message and group: the full exemplar of the field's type, subject to the cut below
/// - repeated: two elements — the value above, then a second one: numbers from `n + 1` by the
///   same formula, `s + "_2"` for strings and bytes, `false`, the enum's first declared value,
///   and for messages the *minimal* instance (required fields only)
/// - map: one entry; the key by the rule above using the map field's `n` and `s` (bool `true`),
///   the value by the rule above for the value type, again using the map field's `n` and `s`.
///
/// ## Recursion cut
/// A message field is left **unset** (a map field with message values is left empty) when its type
/// is already on the path from the root, when the field is more than `maxDepth` messages below the
/// root, or when the exemplar already holds `maxSubmessages` populated submessages (counted in
/// field-number order, depth first). A proto2 `required` message field that is cut gets the minimal
/// instance instead, so the exemplar stays initialized; a cycle of required message fields cannot
/// be closed by any finite message and is left unset.
///
/// ## Edge exemplars
/// Start from the full exemplar and replace, in the root message only, every value of a field the
/// edge applies to (repeated fields get the edge value twice; maps take it as key and/or value; for
/// a real oneof whose chosen member does not apply, the first member that does is chosen). See
/// `EdgeKind` for the values. `nanPayload` exemplars are not text-exact (`isTextExact` is false):
/// text format cannot carry NaN payloads, so text-based cross-checks leave them out.
import ProtoSchema

/// The kinds of edge values, each applied to the field types listed.
public enum EdgeKind: String, Sendable, CaseIterable {
    /// Integer types at their minimum (unsigned: 0), floats at `-greatestFiniteMagnitude`,
    /// enums at their lowest declared number, bool `false`.
    case min
    /// Integer types at their maximum, floats at `greatestFiniteMagnitude`, enums at their highest
    /// declared number, bool `true`.
    case max
    /// Signed integers `-1` (a 10-byte varint for int32/int64), floats `-1.5`.
    case negative
    /// Floats: the canonical quiet NaN (`Float.nan`, `Double.nan`).
    case nan
    /// Floats: a negative NaN with a payload (binary only; not text-exact).
    case nanPayload
    /// Floats: `+infinity`.
    case infinity
    /// Floats: `-infinity`.
    case negativeInfinity
    /// Floats: `-0.0`.
    case negativeZero
    /// Floats: the smallest positive subnormal.
    case subnormal
    /// Strings and bytes: empty.
    case emptyString
    /// Strings: `"ü€😀"` (2-, 3- and 4-byte UTF-8); bytes: the same UTF-8 bytes.
    case nonASCII
    /// Bytes: 100,000 bytes, byte `i` being `i % 251`.
    case largeBytes
}

/// One named exemplar.
public struct Exemplar: Sendable {
    /// Stable name; see the file comment.
    public let name: String
    public let message: DynamicMessage

    public init(name: String, message: DynamicMessage) { self.name = name; self.message = message }

    /// Whether text format carries the exemplar exactly (false for NaN payloads).
    public var isTextExact: Bool { message.isTextExact }
}

/// Builds exemplars for the messages of a schema set; see the file comment for the rules.
public struct Exemplars: Sendable {
    public let schemas: SchemaSet
    /// Deepest message level below the root that is populated.
    public let maxDepth: Int
    /// Most submessages populated in one exemplar.
    public let maxSubmessages: Int

    public init(schemas: SchemaSet, maxDepth: Int = 5, maxSubmessages: Int = 200) {
        self.schemas = schemas; self.maxDepth = maxDepth; self.maxSubmessages = maxSubmessages
    }

    /// Every exemplar of every message except map entries, in `SchemaSet.messages` order;
    /// restricted to messages declared in `files` when given.
    public func all(inFiles files: Set<String>? = nil) -> [Exemplar] {
        schemas.messages.filter { !$0.isMapEntry && (files?.contains($0.file) ?? true) }.flatMap { all(for: $0) }
    }

    /// The full exemplar, one per oneof variant, then the edge exemplars of `message`.
    public func all(for message: MessageSchema) -> [Exemplar] {
        [Exemplar(name: message.fullName, message: full(for: message))] + oneofVariants(for: message) + edges(for: message)
    }

    public func full(for message: MessageSchema) -> DynamicMessage {
        var builder = builder()
        return builder.full(message.fullName, path: [], choices: [:]) ?? DynamicMessage(schema: message, in: schemas)
    }

    public func oneofVariants(for message: MessageSchema) -> [Exemplar] {
        var result: [Exemplar] = []
        for (index, oneof) in message.oneofs.enumerated() where !oneof.isSynthetic {
            for number in oneof.fieldNumbers {
                guard let member = message.field(number: number) else { continue }
                var builder = builder()
                guard let built = builder.full(message.fullName, path: [], choices: [index: number]) else { continue }
                result.append(Exemplar(name: "\(message.fullName)#\(oneof.name)=\(member.name)", message: built))
            }
        }
        return result
    }

    public func edges(for message: MessageSchema) -> [Exemplar] {
        EdgeKind.allCases.compactMap { kind in
            var builder = builder()
            guard let built = builder.edge(kind, message) else { return nil }
            return Exemplar(name: "\(message.fullName)!\(kind.rawValue)", message: built)
        }
    }

    private func builder() -> ExemplarBuilder {
        ExemplarBuilder(layouts: LayoutCache(schemas), maxDepth: maxDepth, budget: maxSubmessages)
    }
}

/// One exemplar's construction state.
private struct ExemplarBuilder {
    /// Message-type lookups.
    var layouts: LayoutCache
    /// Deepest level populated.
    let maxDepth: Int
    /// Submessages that may still be populated.
    var budget: Int

    /// The full exemplar of `fullName`; `choices` maps a oneof index to its chosen member number
    /// (first member when absent). `path` lists the types from the root down to the parent.
    mutating func full(_ fullName: String, path: [String], choices: [Int: Int32]) -> DynamicMessage? {
        guard let layout = layouts.layout(fullName) else { return nil }
        var message = DynamicMessage(layout: layout)
        let inner = path + [fullName]
        for field in layout.sortedFields where isChosen(field, in: layout.schema, choices) {
            populate(field, into: &message, path: inner)
        }
        return message
    }

    /// A message with only its required fields set (recursively minimal); nil for a cycle of
    /// required message fields.
    mutating func minimal(_ fullName: String, path: [String]) -> DynamicMessage? {
        guard !path.contains(fullName), let layout = layouts.layout(fullName) else { return nil }
        var message = DynamicMessage(layout: layout)
        for field in layout.sortedFields where field.label == .required {
            if let typeName = field.typeName, field.type == .message || field.type == .group {
                if let inner = minimal(typeName, path: path + [fullName]) { message.set(number: field.number, .message(inner)) }
            } else {
                message.set(number: field.number, scalar(field.type, Int64(field.number), field.name, second: false,
                                                         enumType: layout.enumTypes[field.number]))
            }
        }
        return message
    }

    private func isChosen(_ field: FieldSchema, in schema: MessageSchema, _ choices: [Int: Int32]) -> Bool {
        guard let index = field.oneofIndex, schema.oneofs.indices.contains(index), !schema.oneofs[index].isSynthetic else {
            return true
        }
        return field.number == (choices[index] ?? schema.oneofs[index].fieldNumbers.first)
    }

    private mutating func populate(_ field: FieldSchema, into message: inout DynamicMessage, path: [String]) {
        let n = Int64(field.number)
        if let entry = message.layout.mapEntries[field.number] {
            let key = scalar(entry.key.type, n, field.name, second: false, enumType: nil)
            let value: ProtoValue?
            if entry.value.type == .message, let typeName = entry.value.typeName {
                value = submessage(typeName, path: path, required: false).map(ProtoValue.message)
            } else {
                value = scalar(entry.value.type, n, field.name, second: false, enumType: entry.valueEnum)
            }
            if let mapKey = MapKey(key), let value { message.setMap(number: field.number, ProtoMap([(mapKey, value)])) }
            return
        }
        if field.type == .message || field.type == .group {
            guard let typeName = field.typeName,
                  let first = submessage(typeName, path: path, required: field.label == .required) else { return }
            if field.isRepeated {
                let second = minimal(typeName, path: []) ?? first
                message.setRepeated(number: field.number, [.message(first), .message(second)])
            } else {
                message.set(number: field.number, .message(first))
            }
            return
        }
        let enumType = message.layout.enumTypes[field.number]
        let first = scalar(field.type, n, field.name, second: false, enumType: enumType)
        if field.isRepeated {
            let second = scalar(field.type, n + 1, field.name, second: true, enumType: enumType)
            message.setRepeated(number: field.number, [first, second])
        } else {
            message.set(number: field.number, first)
        }
    }

    /// The value of a message field under the recursion cut (see the file comment).
    private mutating func submessage(_ typeName: String, path: [String], required: Bool) -> DynamicMessage? {
        if path.contains(typeName) || path.count > maxDepth || budget <= 0 {
            return required ? minimal(typeName, path: []) : nil
        }
        budget -= 1
        return full(typeName, path: path, choices: [:])
    }

    /// The value rule for scalars and enums (`second`: the second element of a repeated field).
    func scalar(_ type: FieldType, _ n: Int64, _ name: String, second: Bool, enumType: EnumSchema?) -> ProtoValue {
        switch type {
        case .int32, .sint32, .sfixed32:
            let v = Int32(truncatingIfNeeded: n)
            return .int32(type == .int32 ? v : -v)
        case .int64, .sint64, .sfixed64: return .int64(type == .int64 ? n : -n)
        case .uint32, .fixed32: return .uint32(UInt32(truncatingIfNeeded: n))
        case .uint64, .fixed64: return .uint64(UInt64(n))
        case .float: return .float(Float(n) + 0.5)
        case .double: return .double(Double(n) + 0.25)
        case .bool: return .bool(!second)
        case .string: return .text(second ? name + "_2" : name)
        case .bytes: return .bytes(Array((second ? name + "_2" : name).utf8))
        case .enum:
            guard let values = enumType?.values, let firstValue = values.first else { return .enumValue(0) }
            if second { return .enumValue(firstValue.number) }
            return .enumValue((values.first { $0.number != 0 } ?? firstValue).number)
        case .message, .group: return .enumValue(0)  // not reached: callers handle messages
        }
    }

    // MARK: Edges

    /// The edge exemplar of `kind`, or nil when the edge touches no field of the root.
    mutating func edge(_ kind: EdgeKind, _ schema: MessageSchema) -> DynamicMessage? {
        guard let layout = layouts.layout(schema.fullName) else { return nil }
        // Choose, per real oneof, the first member the edge applies to (if any).
        var choices: [Int: Int32] = [:]
        for (index, oneof) in schema.oneofs.enumerated() where !oneof.isSynthetic {
            if let number = oneof.fieldNumbers.first(where: { number in
                layout.byNumber[number].map { applies(kind, to: $0, layout) } ?? false
            }) {
                choices[index] = number
            }
        }
        guard var message = full(schema.fullName, path: [], choices: choices) else { return nil }
        var touched = false
        for field in layout.sortedFields where isChosen(field, in: schema, choices) {
            if let entry = layout.mapEntries[field.number] {
                let keyEdge = edgeValue(kind, entry.key.type, enumType: nil).flatMap(MapKey.init)
                let valueEdge = edgeValue(kind, entry.value.type, enumType: entry.valueEnum)
                guard keyEdge != nil || valueEdge != nil else { continue }
                var map = message.map(number: field.number)
                let original = map.entries.first
                let key = keyEdge ?? original?.key
                let value = valueEdge ?? original?.value
                guard let key, let value else { continue }
                map = ProtoMap([(key, value)])
                message.setMap(number: field.number, map)
                touched = true
            } else if let value = edgeValue(kind, field.type, enumType: layout.enumTypes[field.number]) {
                if field.isRepeated {
                    message.setRepeated(number: field.number, [value, value])
                } else {
                    message.set(number: field.number, value)
                }
                touched = true
            }
        }
        return touched ? message : nil
    }

    private func applies(_ kind: EdgeKind, to field: FieldSchema, _ layout: MessageLayout) -> Bool {
        edgeValue(kind, field.type, enumType: layout.enumTypes[field.number]) != nil
    }

    /// The edge value of `kind` for `type`; nil when the edge does not apply to the type.
    func edgeValue(_ kind: EdgeKind, _ type: FieldType, enumType: EnumSchema?) -> ProtoValue? {
        switch (kind, type) {
        case (.min, .int32), (.min, .sint32), (.min, .sfixed32): return .int32(.min)
        case (.min, .int64), (.min, .sint64), (.min, .sfixed64): return .int64(.min)
        case (.min, .uint32), (.min, .fixed32): return .uint32(.min)
        case (.min, .uint64), (.min, .fixed64): return .uint64(.min)
        case (.min, .float): return .float(-.greatestFiniteMagnitude)
        case (.min, .double): return .double(-.greatestFiniteMagnitude)
        case (.min, .bool): return .bool(false)
        case (.min, .enum): return enumType?.values.map(\.number).min().map(ProtoValue.enumValue)
        case (.max, .int32), (.max, .sint32), (.max, .sfixed32): return .int32(.max)
        case (.max, .int64), (.max, .sint64), (.max, .sfixed64): return .int64(.max)
        case (.max, .uint32), (.max, .fixed32): return .uint32(.max)
        case (.max, .uint64), (.max, .fixed64): return .uint64(.max)
        case (.max, .float): return .float(.greatestFiniteMagnitude)
        case (.max, .double): return .double(.greatestFiniteMagnitude)
        case (.max, .bool): return .bool(true)
        case (.max, .enum): return enumType?.values.map(\.number).max().map(ProtoValue.enumValue)
        case (.negative, .int32), (.negative, .sint32), (.negative, .sfixed32): return .int32(-1)
        case (.negative, .int64), (.negative, .sint64), (.negative, .sfixed64): return .int64(-1)
        case (.negative, .float): return .float(-1.5)
        case (.negative, .double): return .double(-1.5)
        case (.nan, .float): return .float(.nan)
        case (.nan, .double): return .double(.nan)
        case (.nanPayload, .float): return .float(Float(bitPattern: 0xFFC0_1234))
        case (.nanPayload, .double): return .double(Double(bitPattern: 0xFFF8_0000_DEAD_BEEF))
        case (.infinity, .float): return .float(.infinity)
        case (.infinity, .double): return .double(.infinity)
        case (.negativeInfinity, .float): return .float(-.infinity)
        case (.negativeInfinity, .double): return .double(-.infinity)
        case (.negativeZero, .float): return .float(-0.0)
        case (.negativeZero, .double): return .double(-0.0)
        case (.subnormal, .float): return .float(.leastNonzeroMagnitude)
        case (.subnormal, .double): return .double(.leastNonzeroMagnitude)
        case (.emptyString, .string): return .string([])
        case (.emptyString, .bytes): return .bytes([])
        case (.nonASCII, .string): return .text("ü€😀")
        case (.nonASCII, .bytes): return .bytes(Array("ü€😀".utf8))
        case (.largeBytes, .bytes): return .bytes((0..<100_000).map { UInt8($0 % 251) })
        default: return nil
        }
    }
}
