import ProtoSchema

/// Lookup tables for one message type, built once and shared by every `DynamicMessage` of it.
///
/// Holding these behind one reference keeps `DynamicMessage` (and so `ProtoValue`) a few words
/// wide, which bounds the memory a decoded message takes per input byte.
final class MessageLayout: Sendable {
    let schema: MessageSchema
    /// Fields keyed by number.
    let byNumber: [Int32: FieldSchema]
    /// Fields keyed by declared name.
    let byName: [String: FieldSchema]
    /// Fields in number order: the order the encoder and the text printer write them in.
    let sortedFields: [FieldSchema]
    /// Numbers of the map fields: repeated fields whose type is a map-entry message.
    let mapFieldNumbers: Set<Int32>
    /// For each map field: the entry type's key (number 1) and value (number 2) fields.
    let mapEntries: [Int32: MapEntryFields]
    /// For each enum-typed field (map values excluded: see `MapEntryFields.valueEnum`): its enum.
    let enumTypes: [Int32: EnumSchema]

    init(_ schema: MessageSchema, in schemas: SchemaSet) {
        self.schema = schema
        var mapEntries: [Int32: MapEntryFields] = [:]
        for field in schema.fields where field.isRepeated && field.type == .message {
            guard let entry = field.typeName.flatMap(schemas.message), entry.isMapEntry,
                  let key = entry.mapKey, let value = entry.mapValue else { continue }
            mapEntries[field.number] = MapEntryFields(
                entry: entry, key: key, value: value,
                valueEnum: value.type == .enum ? value.typeName.flatMap(schemas.enumType) : nil)
        }
        var enumTypes: [Int32: EnumSchema] = [:]
        for field in schema.fields where field.type == .enum {
            enumTypes[field.number] = field.typeName.flatMap(schemas.enumType)
        }
        self.enumTypes = enumTypes
        self.mapEntries = mapEntries
        self.mapFieldNumbers = Set(mapEntries.keys)
        var byNumber: [Int32: FieldSchema] = [:]
        var byName: [String: FieldSchema] = [:]
        for field in schema.fields {
            byNumber[field.number] = field
            byName[field.name] = field
        }
        self.byNumber = byNumber
        self.byName = byName
        self.sortedFields = schema.fieldsByNumber
    }
}

/// The synthesised entry message of a map field and its two fields.
struct MapEntryFields: Sendable {
    let entry: MessageSchema
    let key: FieldSchema
    let value: FieldSchema
    /// The value's enum when the value field is an enum.
    let valueEnum: EnumSchema?
}

/// Resolves message types by full name. Every layout comes from the schema set's shared
/// `SchemaLayouts`, so decoders, parsers and generators never rebuild one.
struct LayoutCache {
    let schemas: SchemaSet
    let shared: SchemaLayouts

    init(_ schemas: SchemaSet) {
        self.schemas = schemas
        shared = SchemaLayouts.shared(for: schemas)
    }

    /// The layout of `fullName`; nil when the set does not declare it.
    func layout(_ fullName: String) -> MessageLayout? { shared.layouts[fullName] }

    /// An empty message of `fullName`; nil when the set does not declare it.
    func empty(_ fullName: String) -> DynamicMessage? {
        layout(fullName).map(DynamicMessage.init(layout:))
    }
}
