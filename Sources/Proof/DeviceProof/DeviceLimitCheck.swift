// Which fields of a message value the device's build would refuse, and why: the limits of
// DeviceLayout applied to an oracle value, recursively through the submessages the device keeps.

import NanopbDeviceLayout
import ProtoOracle
import ProtoSchema

/// One field of a value past one of the device's limits.
public struct DeviceViolation: Sendable, Equatable, CustomStringConvertible {
    /// Dotted field path from the top message (`sensors[1].name`).
    public let path: String
    public let limit: DeviceLimit
    /// What the value has (`17 bytes`, `6 elements`, `300`).
    public let actual: String

    public var description: String { "\(path): \(actual) past \(limit.option)" }
}

public enum DeviceLimitCheck {
    /// Every violation in `message`, in field order; empty when the device accepts its limits.
    /// Fields the device drops (callbacks, FT_IGNORE) are not looked into: it never stores them.
    public static func violations(of message: DynamicMessage, layout: DeviceLayout) -> [DeviceViolation] {
        var found: [DeviceViolation] = []
        collect(message, layout: layout, prefix: "", into: &found)
        return found
    }

    private static func collect(_ message: DynamicMessage, layout: DeviceLayout, prefix: String, into found: inout [DeviceViolation]) {
        guard let shape = layout.message(message.fullName) else { return }
        for field in shape.fields where !field.isDroppedByDevice {
            guard let schema = message.field(number: field.number), let content = message.content(number: field.number) else { continue }
            let path = prefix + field.name
            let (whole, each) = field.limits
            let values: [ProtoValue]
            switch content {
            case .single(let value): values = [value]
            case .repeated(let elements): values = elements
            case .map(let map): values = Array(repeating: .bool(false), count: map.count)  // counted, not looked into
            }
            for limit in whole {
                if let actual = exceeds(limit, count: values.count) { found.append(DeviceViolation(path: path, limit: limit, actual: actual)) }
            }
            if case .map = content { continue }
            for (index, value) in values.enumerated() {
                let at = schema.isRepeated ? "\(path)[\(index)]" : path
                for limit in each {
                    if let actual = exceeds(limit, value: value) { found.append(DeviceViolation(path: at, limit: limit, actual: actual)) }
                }
                if let sub = value.messageValue { collect(sub, layout: layout, prefix: at + ".", into: &found) }
            }
        }
    }

    /// What a count past `limit` is, or nil within it.
    static func exceeds(_ limit: DeviceLimit, count: Int) -> String? {
        switch limit.kind {
        case .count(let max) where count > max: "\(count) elements"
        case .fixedCount(let exactly) where count != exactly: "\(count) elements"
        default: nil
        }
    }

    /// What a value past `limit` is, or nil within it.
    static func exceeds(_ limit: DeviceLimit, value: ProtoValue) -> String? {
        switch (limit.kind, value) {
        case (.stringBytes(let max), .string(let bytes)) where bytes.count > max: return "\(bytes.count) bytes"
        case (.bytes(let max), .bytes(let bytes)) where bytes.count > max: return "\(bytes.count) bytes"
        case (.fixedBytes(let size), .bytes(let bytes)) where !bytes.isEmpty && bytes.count != size: return "\(bytes.count) bytes"
        case (.integer(let low, let high), _):
            guard let number = integer(value), number < low || number > high else { return nil }
            return "\(number)"
        default: return nil
        }
    }

    /// The value of an integer field as a wide integer.
    static func integer(_ value: ProtoValue) -> Int128? {
        switch value {
        case .int32(let v): Int128(v)
        case .int64(let v): Int128(v)
        case .uint32(let v): Int128(v)
        case .uint64(let v): Int128(v)
        case .enumValue(let v): Int128(v)
        default: nil
        }
    }
}
