import ProtoSchema

/// What one set field holds.
public enum FieldContent: Sendable, Equatable {
    /// A singular field's value.
    case single(ProtoValue)
    /// A repeated field's elements (never empty while stored).
    case repeated([ProtoValue])
    /// A map field's entries (never empty while stored).
    case map(ProtoMap)
}

/// A message of any schema: field values by number, plus unknown fields.
///
/// Invariants (kept by every mutation):
/// - `fields` holds only declared field numbers, each with the content kind its label implies
///   (`.map` for map fields, `.repeated` for other repeated fields, `.single` otherwise) and values
///   whose case matches the field type (`ProtoValue.matches`).
/// - A stored field is a *present* field. Fields without presence (proto3 singular scalars that
///   are neither `optional` nor in a oneof) are removed when set to their zero value, so "absent"
///   and "zero" cannot differ; repeated and map fields are removed when emptied.
/// - At most one member of each oneof (synthetic ones included) is stored: setting one clears the
///   others.
/// - `unknownFields` keeps unknown fields in the order they were read or added.
///
/// Equality is semantic: same message type, same present fields with equal values (floats by bit
/// pattern, maps ignoring order), and the same unknown fields in the same order.
///
/// Setting a value of the wrong type or on an undeclared field is a programming error and traps.
public struct DynamicMessage: Sendable {
    let layout: MessageLayout
    /// Present fields by number.
    private(set) var fields: [Int32: FieldContent] = [:]
    /// Unknown fields in wire order.
    public var unknownFields: [UnknownField] = []

    /// An empty message of the given type; `schemas` must declare it (it resolves map fields).
    /// The layout comes from the set's shared `SchemaLayouts` (built once per set).
    public init(schema: MessageSchema, in schemas: SchemaSet) {
        self.layout = SchemaLayouts.shared(for: schemas).layouts[schema.fullName] ?? MessageLayout(schema, in: schemas)
    }

    /// An empty message of the type named `fullName`; nil when `schemas` does not declare it.
    public init?(_ fullName: String, in schemas: SchemaSet) {
        guard let schema = schemas.message(fullName) else { return nil }
        self.init(schema: schema, in: schemas)
    }

    init(layout: MessageLayout) { self.layout = layout }

    public var schema: MessageSchema { layout.schema }
    public var fullName: String { layout.schema.fullName }

    /// The declared field with this number or name.
    public func field(number: Int32) -> FieldSchema? { layout.byNumber[number] }
    public func field(named name: String) -> FieldSchema? { layout.byName[name] }

    /// Numbers of the present fields, ascending.
    public var presentFieldNumbers: [Int32] { fields.keys.sorted() }

    /// The content of a present field.
    public func content(number: Int32) -> FieldContent? { fields[number] }

    /// Whether a field is present (for repeated and map fields: non-empty).
    public func has(number: Int32) -> Bool { fields[number] != nil }
    public func has(named name: String) -> Bool { field(named: name).map { has(number: $0.number) } ?? false }

    // MARK: Singular fields

    /// A singular field's value; nil when absent. Setting nil clears the field.
    public subscript(number number: Int32) -> ProtoValue? {
        get {
            guard case let .single(value)? = fields[number] else { return nil }
            return value
        }
        set {
            if let newValue { set(number: number, newValue) } else { clear(number: number) }
        }
    }

    /// A singular field's value by field name; nil when absent. Setting nil clears the field.
    public subscript(name: String) -> ProtoValue? {
        get { field(named: name).flatMap { self[number: $0.number] } }
        set {
            guard let field = field(named: name) else { preconditionFailure("\(fullName) has no field \(name)") }
            self[number: field.number] = newValue
        }
    }

    /// Sets a singular field, clearing the other members of its oneof. Setting a field without
    /// presence to its zero value clears it.
    public mutating func set(number: Int32, _ value: ProtoValue) {
        let field = declared(number)
        precondition(!field.isRepeated, "\(fullName).\(field.name) is repeated")
        checkType(value, field)
        clearOneofSiblings(of: field)
        if !field.hasPresence, value.isImplicitDefault {
            fields[number] = nil
        } else {
            fields[number] = .single(value)
        }
    }

    /// Removes a field of any kind.
    public mutating func clear(number: Int32) { fields[number] = nil }

    // MARK: Repeated fields

    /// A repeated field's elements (empty when absent).
    public func repeated(number: Int32) -> [ProtoValue] {
        guard case let .repeated(values)? = fields[number] else { return [] }
        return values
    }

    public func repeated(named name: String) -> [ProtoValue] {
        field(named: name).map { repeated(number: $0.number) } ?? []
    }

    /// Replaces a repeated (non-map) field's elements.
    public mutating func setRepeated(number: Int32, _ values: [ProtoValue]) {
        let field = declared(number)
        precondition(field.isRepeated && !isMap(field), "\(fullName).\(field.name) is not a plain repeated field")
        for value in values { checkType(value, field) }
        fields[number] = values.isEmpty ? nil : .repeated(values)
    }

    /// Appends one element to a repeated (non-map) field.
    public mutating func append(number: Int32, _ value: ProtoValue) {
        let field = declared(number)
        precondition(field.isRepeated && !isMap(field), "\(fullName).\(field.name) is not a plain repeated field")
        checkType(value, field)
        var values = repeated(number: number)
        fields[number] = nil  // keep `values` uniquely referenced so the append is amortised O(1)
        values.append(value)
        fields[number] = .repeated(values)
    }

    // MARK: Map fields

    /// A map field's entries (empty when absent).
    public func map(number: Int32) -> ProtoMap {
        guard case let .map(map)? = fields[number] else { return ProtoMap() }
        return map
    }

    public func map(named name: String) -> ProtoMap {
        field(named: name).map { map(number: $0.number) } ?? ProtoMap()
    }

    /// Replaces a map field's entries.
    public mutating func setMap(number: Int32, _ map: ProtoMap) {
        guard let entry = layout.mapEntries[number] else { preconditionFailure("\(fullName) field \(number) is not a map") }
        for (key, value) in map.entries {
            checkType(key.value, entry.key)
            checkType(value, entry.value)
        }
        fields[number] = map.isEmpty ? nil : .map(map)
    }

    // MARK: Oneofs

    /// The member of `oneof` that is present, if any.
    public func presentMember(of oneof: OneofSchema) -> FieldSchema? {
        oneof.fieldNumbers.first { fields[$0] != nil }.flatMap(field(number:))
    }

    /// Whether `field` is a map field (a repeated field of a synthesised map-entry type).
    public func isMap(_ field: FieldSchema) -> Bool { layout.mapFieldNumbers.contains(field.number) }

    // MARK: Internal mutation used by the decoder and the text parser

    /// Stores content without the presence normalisation of `set` (the caller has applied it).
    mutating func store(_ number: Int32, _ content: FieldContent?) { fields[number] = content }

    mutating func clearOneofSiblings(of field: FieldSchema) {
        guard let index = field.oneofIndex, schema.oneofs.indices.contains(index) else { return }
        for other in schema.oneofs[index].fieldNumbers where other != field.number { fields[other] = nil }
    }

    /// Traps unless `value` has the representation of `field`'s type (and, for messages, its type).
    private func checkType(_ value: ProtoValue, _ field: FieldSchema) {
        precondition(value.matches(field.type), "\(fullName).\(field.name) cannot hold \(value)")
        if case let .message(inner) = value {
            precondition(inner.fullName == field.typeName, "\(fullName).\(field.name) cannot hold a \(inner.fullName)")
        }
    }

    private func declared(_ number: Int32) -> FieldSchema {
        guard let field = layout.byNumber[number] else { preconditionFailure("\(fullName) has no field \(number)") }
        return field
    }
}

extension DynamicMessage: Equatable {
    public static func == (lhs: DynamicMessage, rhs: DynamicMessage) -> Bool {
        lhs.fullName == rhs.fullName && lhs.fields == rhs.fields && lhs.unknownFields == rhs.unknownFields
    }
}

extension DynamicMessage: CustomStringConvertible {
    /// The message in protobuf text format (unknown fields shown as comments).
    public var description: String {
        var printer = TextFormatPrinter()
        printer.unknownFields = .asComments
        return printer.print(self)
    }
}

extension DynamicMessage {
    /// Levels of submessages below this message as the wire nests them: a message (or group) value
    /// is one level; a map entry is one level and a message value inside it one more. For tests
    /// that check depth limits (the random generator's, the wire scanner's).
    var nestingDepth: Int {
        var deepest = 0
        for content in fields.values {
            switch content {
            case let .single(value): deepest = max(deepest, Self.depth(of: value))
            case let .repeated(values): deepest = values.reduce(deepest) { max($0, Self.depth(of: $1)) }
            case let .map(map): deepest = map.entries.reduce(deepest) { max($0, 1 + Self.depth(of: $1.value)) }
            }
        }
        return deepest
    }

    private static func depth(of value: ProtoValue) -> Int {
        guard case let .message(inner) = value else { return 0 }
        return 1 + inner.nestingDepth
    }
}
