// Limit exemplars: for every limited field of every message of the device build, a message with
// the field exactly at the limit and one past it — strings and bytes of max_size/max_length and
// one more, max_count elements and one more, the extremes of int_size and one beyond, fixed_length
// and fixed_count wrong by one either way. The device must accept every "at" and refuse every
// "past"; the rest of each message is the smallest valid one (required fields only).

import NanopbDeviceLayout
import ProtoOracle
import ProtoSchema

public struct LimitExemplar: Sendable {
    /// `pkg.Msg.field max_size = 16: at (15 bytes)`.
    public let name: String
    public let messageType: String
    public let limit: DeviceLimit
    /// true: exactly at the limit (the device must accept); false: one past (it must refuse).
    public let isAt: Bool
    public let message: DynamicMessage
}

public enum LimitExemplars {
    /// Every limit exemplar of the schema, message by message in layout order. Map fields and
    /// messages whose required fields alone break a limit have none (`skipped` says which).
    public static func all(layout: DeviceLayout, schemas: SchemaSet) -> (exemplars: [LimitExemplar], skipped: [String]) {
        var result: [LimitExemplar] = [], skipped: [String] = []
        for shape in layout.messages {
            guard let schema = schemas.message(shape.fullName), !schema.isMapEntry else { continue }
            let base = minimal(schema, schemas: schemas, layout: layout, depth: 0)
            guard DeviceLimitCheck.violations(of: base, layout: layout).isEmpty else {
                skipped.append("\(shape.fullName): its required fields alone exceed a device limit")
                continue
            }
            for field in shape.fields {
                guard let fieldSchema = schema.field(number: field.number) else { continue }
                if let typeName = fieldSchema.typeName, schemas.message(typeName)?.isMapEntry == true {
                    if !field.limits.whole.isEmpty { skipped.append("\(shape.fullName).\(field.name): a map field") }
                    continue
                }
                result += cases(for: field, fieldSchema, base: base, schema: schema, schemas: schemas, layout: layout)
            }
        }
        return (result, skipped)
    }

    private static func cases(for field: DeviceLayout.Field, _ fieldSchema: FieldSchema, base: DynamicMessage,
                              schema: MessageSchema, schemas: SchemaSet, layout: DeviceLayout) -> [LimitExemplar] {
        var out: [LimitExemplar] = []
        let (whole, each) = field.limits
        func add(_ limit: DeviceLimit, _ isAt: Bool, _ what: String, _ values: [ProtoValue]) {
            var message = base
            if fieldSchema.isRepeated { message.setRepeated(number: field.number, values) } else { message.set(number: field.number, values[0]) }
            out.append(LimitExemplar(name: "\(schema.fullName).\(field.name) \(limit.option): \(isAt ? "at" : "past") (\(what))",
                                     messageType: schema.fullName, limit: limit, isAt: isAt, message: message))
        }
        for limit in each {
            for (isAt, value, what) in values(for: limit, fieldSchema) { add(limit, isAt, what, [value]) }
        }
        if let element = element(fieldSchema, within: each, schemas: schemas, layout: layout) {
            for limit in whole {
                let counts: [(Bool, Int)]
                switch limit.kind {
                case .count(let max): counts = [(true, max), (false, max + 1)]
                case .fixedCount(let count): counts = [(true, count), (false, count + 1)] + (count > 1 ? [(false, count - 1)] : [])
                default: counts = []
                }
                for (isAt, count) in counts where count > 0 {
                    add(limit, isAt, "\(count) elements", Array(repeating: element, count: count))
                }
            }
        }
        return out
    }

    /// (at?, value, description) for one value limit.
    private static func values(for limit: DeviceLimit, _ field: FieldSchema) -> [(Bool, ProtoValue, String)] {
        func text(_ n: Int) -> ProtoValue { field.type == .string ? .string(Array(repeating: 0x61, count: n)) : .bytes(Array(repeating: 0x62, count: n)) }
        switch limit.kind {
        case .stringBytes(let max), .bytes(let max):
            return (max > 0 ? [(true, text(max), "\(max) bytes")] : []) + [(false, text(max + 1), "\(max + 1) bytes")]
        case .fixedBytes(let size):
            return [(true, text(size), "\(size) bytes"), (false, text(size + 1), "\(size + 1) bytes")]
                + (size > 1 ? [(false, text(size - 1), "\(size - 1) bytes")] : [])
        case .integer(let low, let high):
            var out: [(Bool, ProtoValue, String)] = []
            for (isAt, n) in [(true, high), (true, low), (false, high + 1), (false, low - 1)] where n != 0 {
                if let value = integer(n, field.type) { out.append((isAt, value, "\(n)")) }
            }
            return out
        case .count, .fixedCount:
            return []
        }
    }

    /// `n` as a value of an integer field's type, when that type can hold it.
    static func integer(_ n: Int128, _ type: FieldType) -> ProtoValue? {
        switch type {
        case .int32, .sint32, .sfixed32: Int32(exactly: n).map { .int32($0) }
        case .int64, .sint64, .sfixed64: Int64(exactly: n).map { .int64($0) }
        case .uint32, .fixed32: UInt32(exactly: n).map { .uint32($0) }
        case .uint64, .fixed64: UInt64(exactly: n).map { .uint64($0) }
        default: nil
        }
    }

    /// One element of a repeated field that keeps every per-value limit.
    private static func element(_ field: FieldSchema, within limits: [DeviceLimit], schemas: SchemaSet, layout: DeviceLayout) -> ProtoValue? {
        for limit in limits { if case .fixedBytes(let size) = limit.kind { return .bytes(Array(repeating: 1, count: size)) } }
        switch field.type {
        case .string: return .text("a")
        case .bytes: return .bytes([1])
        case .bool: return .bool(true)
        case .float: return .float(1)
        case .double: return .double(1)
        case .enum: return .enumValue(field.typeName.flatMap { schemas.enumType($0)?.values.first?.number } ?? 0)
        case .message:
            guard let name = field.typeName, let sub = schemas.message(name) else { return nil }
            return .message(minimal(sub, schemas: schemas, layout: layout, depth: 1))
        case .group: return nil
        default: return integer(1, field.type)
        }
    }

    /// The smallest valid message: only its required fields, each minimal and within the
    /// device's limits on it (a fixed_length field gets its size), at a bounded depth.
    static func minimal(_ schema: MessageSchema, schemas: SchemaSet, layout: DeviceLayout, depth: Int) -> DynamicMessage {
        var message = DynamicMessage(schema: schema, in: schemas)
        guard depth < 8 else { return message }
        let shape = layout.message(schema.fullName)
        for field in schema.fields where field.label == .required {
            if field.type == .message, let name = field.typeName, let sub = schemas.message(name) {
                message.set(number: field.number, .message(minimal(sub, schemas: schemas, layout: layout, depth: depth + 1)))
            } else if let value = element(field, within: shape?.field(number: field.number)?.limits.value ?? [], schemas: schemas, layout: layout) {
                message.set(number: field.number, value)
            }
        }
        return message
    }
}
