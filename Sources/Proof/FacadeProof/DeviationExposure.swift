// Which rows of docs/deviations.md a schema is exposed to, and through how many fields: a user
// reading the proof of their schema learns which deliberate differences can reach their traffic.
// Each row is a predicate over the schema (never over names), so it holds for any schema.

import ProtoSchema

/// One row of docs/deviations.md and the elements of a schema it can affect.
public struct DeviationExposure: Sendable, Equatable {
    /// The row number in docs/deviations.md.
    public let row: Int
    public let summary: String
    /// Fields (`pkg.Msg.field`) or messages the row applies to, sorted.
    public let elements: [String]
}

public enum DeviationRows {
    /// Rows that apply to fields, by predicate. Rows 5, 14 and 15 (unknown fields dropped, wrong
    /// wire type rejected, error offsets) apply to every message and are counted per message.
    static let fieldRows: [(row: Int, summary: String, applies: @Sendable (FieldSchema, MessageSchema, SchemaSet) -> Bool)] = [
        (1, "explicit zeros re-encoded (implicit-presence scalars)", { field, _, _ in
            !field.hasPresence && !field.isRepeated && field.type != .message }),
        (2, "a builder stores an implicit-presence zero as absent", { field, _, _ in
            !field.hasPresence && !field.isRepeated && field.type != .message }),
        (3, "duplicate singular submessage replaces the first", { field, message, _ in
            field.type == .message && !field.isRepeated && !isInRealOneof(field, message) }),
        (4, "duplicate oneof submessage replaces the first", { field, message, _ in
            field.type == .message && isInRealOneof(field, message) }),
        (6, "repeated numbers always written packed", { field, _, _ in
            field.isRepeated && field.type.isPackable && !field.isPacked }),
        (7, "over-wide varints rejected (uint32, sint32, bool)", { field, _, _ in
            [.uint32, .sint32, .bool].contains(field.type) }),
        (8, "strings end at an embedded NUL", { field, _, _ in field.type == .string }),
        (9, "invalid UTF-8 accepted in proto3 strings", { field, message, _ in
            field.type == .string && message.syntax == .proto3 }),
        (10, "maps keep wire order, equal only semantically", { field, _, schemas in isMap(field, schemas) }),
        (11, "a duplicate map key is kept twice", { field, _, schemas in isMap(field, schemas) }),
        (12, "closed enums keep unknown numbers in the field", { field, _, schemas in
            field.type == .enum && (field.typeName.flatMap(schemas.enumType)?.isClosed ?? false) }),
        (13, "enums without negative members are unsigned", { field, _, schemas in
            field.type == .enum && !(field.typeName.flatMap(schemas.enumType)?.values.contains { $0.number < 0 } ?? true) }),
    ]

    static let messageRows: [(row: Int, summary: String)] = [
        (5, "unknown fields dropped"),
        (14, "a known field with the wrong wire type fails to decode"),
        (15, "decode error offsets are where nanopb stopped"),
    ]

    /// The rows `messages` (the schema's own, map entries excluded) are exposed to, by row number.
    public static func exposure(of messages: [MessageSchema], in schemas: SchemaSet) -> [DeviationExposure] {
        var result: [DeviationExposure] = []
        for rule in fieldRows {
            var elements: [String] = []
            for message in messages {
                for field in message.fields where rule.applies(field, message, schemas) {
                    elements.append("\(message.fullName).\(field.name)")
                }
            }
            result.append(DeviationExposure(row: rule.row, summary: rule.summary, elements: elements.sorted()))
        }
        // Row 20: every extension of a proven message (the facades carry none; the plan skips them).
        let proven = Set(messages.map(\.fullName))
        let extensions = schemas.extensions.filter { proven.contains($0.extendee ?? "") }
            .map { "\($0.extendee!).[\($0.scope).\($0.name)]" }
        result.append(DeviationExposure(row: 20, summary: "extension fields dropped on decode (not generated)", elements: extensions.sorted()))
        for rule in messageRows {
            let elements = messages.filter { !$0.fields.isEmpty }.map(\.fullName).sorted()
            result.append(DeviationExposure(row: rule.row, summary: rule.summary, elements: elements))
        }
        return result.sorted { $0.row < $1.row }
    }

    private static func isInRealOneof(_ field: FieldSchema, _ message: MessageSchema) -> Bool {
        guard let index = field.oneofIndex, message.oneofs.indices.contains(index) else { return false }
        return !message.oneofs[index].isSynthetic
    }

    private static func isMap(_ field: FieldSchema, _ schemas: SchemaSet) -> Bool {
        field.isRepeated && field.type == .message && (field.typeName.flatMap(schemas.message)?.isMapEntry ?? false)
    }
}
