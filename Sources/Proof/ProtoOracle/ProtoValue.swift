import ProtoSchema

/// One value of a singular field, one element of a repeated field, or one map value.
///
/// Each case covers every field type with the same Swift representation:
/// - `.int32`: `int32`, `sint32`, `sfixed32`; `.int64`: `int64`, `sint64`, `sfixed64`;
/// - `.uint32`: `uint32`, `fixed32`; `.uint64`: `uint64`, `fixed64`;
/// - `.string`: `string` fields, held as **raw bytes**. Proto3 strings are valid UTF-8 (the decoder
///   enforces it), proto2 strings may hold any bytes, so bytes are the one representation that
///   carries both. Use `ProtoValue.text(_:)` and `stringValue` to convert;
/// - `.enumValue`: the enum number (open enums may hold numbers the enum does not declare);
/// - `.message`: `message` and `group` fields.
///
/// Equality is semantic and exact: floats and doubles compare by bit pattern, so `-0.0 != 0.0`
/// and two NaNs are equal exactly when their payloads are.
public enum ProtoValue: Sendable {
    case int32(Int32)
    case int64(Int64)
    case uint32(UInt32)
    case uint64(UInt64)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string([UInt8])
    case bytes([UInt8])
    case enumValue(Int32)
    indirect case message(DynamicMessage)

    /// A string value holding the UTF-8 encoding of `text`.
    public static func text(_ text: String) -> ProtoValue { .string(Array(text.utf8)) }

    /// The value of a `.string` as Swift text; nil for other cases or bytes that are not UTF-8.
    public var stringValue: String? {
        guard case let .string(bytes) = self else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The message of a `.message` value.
    public var messageValue: DynamicMessage? {
        guard case let .message(message) = self else { return nil }
        return message
    }

    /// True when the value is the type's zero: the value a proto3 field without presence omits.
    /// Floats and doubles count as zero only for the bit pattern of `+0.0` (Google's encoders
    /// write `-0.0`).
    public var isImplicitDefault: Bool {
        switch self {
        case let .int32(v): return v == 0
        case let .int64(v): return v == 0
        case let .uint32(v): return v == 0
        case let .uint64(v): return v == 0
        case let .bool(v): return !v
        case let .float(v): return v.bitPattern == 0
        case let .double(v): return v.bitPattern == 0
        case let .string(v): return v.isEmpty
        case let .bytes(v): return v.isEmpty
        case let .enumValue(v): return v == 0
        case .message: return false
        }
    }

    /// Whether this case is the representation of values of `type`.
    public func matches(_ type: FieldType) -> Bool {
        switch (self, type) {
        case (.int32, .int32), (.int32, .sint32), (.int32, .sfixed32): return true
        case (.int64, .int64), (.int64, .sint64), (.int64, .sfixed64): return true
        case (.uint32, .uint32), (.uint32, .fixed32): return true
        case (.uint64, .uint64), (.uint64, .fixed64): return true
        case (.bool, .bool), (.float, .float), (.double, .double): return true
        case (.string, .string), (.bytes, .bytes), (.enumValue, .enum): return true
        case (.message, .message), (.message, .group): return true
        default: return false
        }
    }
}

extension ProtoValue: Equatable {
    public static func == (lhs: ProtoValue, rhs: ProtoValue) -> Bool {
        switch (lhs, rhs) {
        case let (.int32(a), .int32(b)): return a == b
        case let (.int64(a), .int64(b)): return a == b
        case let (.uint32(a), .uint32(b)): return a == b
        case let (.uint64(a), .uint64(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case let (.float(a), .float(b)): return a.bitPattern == b.bitPattern
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): return a == b
        case let (.bytes(a), .bytes(b)): return a == b
        case let (.enumValue(a), .enumValue(b)): return a == b
        case let (.message(a), .message(b)): return a == b
        default: return false
        }
    }
}

extension ProtoValue {
    /// The zero value of a scalar or enum type (enum: number 0, which proto3 requires to exist).
    /// Returns nil for `.message` and `.group`, whose default needs the message schema.
    static func zero(of type: FieldType) -> ProtoValue? {
        switch type {
        case .int32, .sint32, .sfixed32: return .int32(0)
        case .int64, .sint64, .sfixed64: return .int64(0)
        case .uint32, .fixed32: return .uint32(0)
        case .uint64, .fixed64: return .uint64(0)
        case .bool: return .bool(false)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string([])
        case .bytes: return .bytes([])
        case .enum: return .enumValue(0)
        case .message, .group: return nil
        }
    }
}
