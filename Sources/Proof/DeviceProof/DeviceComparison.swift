// What the device kept of a message: the value the app sent against the value the device sent
// back (both as the oracle reads them). A difference is explained by a named option — a field the
// device drops (callbacks, FT_IGNORE: "truncated"), a fixed_length / fixed_count field the device
// always writes (zeros where nothing was sent: "filled") — or it is a failure.

import NanopbDeviceLayout
import ProtoOracle
import ProtoSchema

public struct DeviceDifference: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The device dropped the field, as its options say.
        case truncated
        /// The device wrote zeros for a fixed-size field that was not sent, as its options say.
        case filled
        /// Not explained by any option: a failure.
        case mismatch
    }
    public let kind: Kind
    public let path: String
    /// The option that explains it, or what differs.
    public let detail: String

    public var description: String { "\(path): \(kind.rawValue) (\(detail))" }
}

public enum DeviceComparison {
    /// Every difference between `sent` and `back` (same message type), in field order.
    public static func differences(sent: DynamicMessage, back: DynamicMessage, layout: DeviceLayout) -> [DeviceDifference] {
        var found: [DeviceDifference] = []
        compare(sent, back, layout: layout, prefix: "", into: &found)
        return found
    }

    private static func compare(_ sent: DynamicMessage, _ back: DynamicMessage, layout: DeviceLayout, prefix: String,
                                into found: inout [DeviceDifference]) {
        let shape = layout.message(sent.fullName)
        for schema in sent.schema.fieldsByNumber {
            let number = schema.number, path = prefix + schema.name
            var mine = sent.content(number: number), theirs = back.content(number: number)
            // Without presence, a zero value and an absent field mean the same (the facades keep
            // a zero they were sent, the device does not write one).
            if !schema.hasPresence, !schema.isRepeated {
                if case .single(let value)? = mine, value.isImplicitDefault { mine = nil }
                if case .single(let value)? = theirs, value.isImplicitDefault { theirs = nil }
            }
            if mine == nil && theirs == nil { continue }
            if let dropped = shape?.dropped(number: number) {
                found.append(theirs == nil
                    ? DeviceDifference(kind: .truncated, path: path, detail: "type = \(dropped.options["type"] ?? "FT_IGNORE")")
                    : DeviceDifference(kind: .mismatch, path: path, detail: "the device has a field it drops"))
                continue
            }
            guard let field = shape?.field(number: number) else {
                if mine != theirs { found.append(DeviceDifference(kind: .mismatch, path: path, detail: "differs; not in the device layout")) }
                continue
            }
            if field.options["proto3"] == "true", theirs == nil, case .single(let value)? = mine, value.isImplicitDefault {
                found.append(DeviceDifference(kind: .truncated, path: path, detail: "proto3 = true: the device does not send a zero"))
                continue
            }
            if field.isDroppedByDevice {
                found.append(theirs == nil ? DeviceDifference(kind: .truncated, path: path, detail: field.dropReason)
                                           : DeviceDifference(kind: .mismatch, path: path, detail: "the device has a field it drops"))
                continue
            }
            if mine == nil, let theirs, isZeroFill(theirs), field.type == "FIXED_LENGTH_BYTES" || field.rules == "FIXARRAY" {
                let option = field.type == "FIXED_LENGTH_BYTES" ? "fixed_length (max_size = \(field.maxSize ?? 0))"
                                                                : "fixed_count (max_count = \(field.maxCount ?? 0))"
                found.append(DeviceDifference(kind: .filled, path: path, detail: option))
                continue
            }
            switch (mine, theirs) {
            case (.single(let a)?, .single(let b)?):
                if isFilledFixedLength(a, b, field) {
                    found.append(DeviceDifference(kind: .filled, path: path, detail: "fixed_length (max_size = \(field.maxSize ?? 0))"))
                } else if let x = a.messageValue, let y = b.messageValue {
                    compare(x, y, layout: layout, prefix: path + ".", into: &found)
                } else if a != b {
                    found.append(DeviceDifference(kind: .mismatch, path: path, detail: "sent \(a), back \(b)"))
                }
            case (.repeated(let a)?, .repeated(let b)?) where a.count == b.count:
                for (index, (x, y)) in zip(a, b).enumerated() where x != y {
                    if isFilledFixedLength(x, y, field) {
                        found.append(DeviceDifference(kind: .filled, path: "\(path)[\(index)]", detail: "fixed_length (max_size = \(field.maxSize ?? 0))"))
                    } else if let xm = x.messageValue, let ym = y.messageValue {
                        compare(xm, ym, layout: layout, prefix: "\(path)[\(index)].", into: &found)
                    } else {
                        found.append(DeviceDifference(kind: .mismatch, path: "\(path)[\(index)]", detail: "sent \(x), back \(y)"))
                    }
                }
            default:
                if mine != theirs {
                    found.append(DeviceDifference(kind: .mismatch, path: path, detail: "sent \(describe(mine)), back \(describe(theirs))"))
                }
            }
        }
    }

    /// An empty fixed_length bytes value the device stored as zeros (nanopb's rule for empty input).
    static func isFilledFixedLength(_ sent: ProtoValue, _ back: ProtoValue, _ field: DeviceLayout.Field) -> Bool {
        guard field.type == "FIXED_LENGTH_BYTES", case .bytes(let a) = sent, a.isEmpty, case .bytes(let b) = back else { return false }
        return b.count == field.maxSize && b.allSatisfy { $0 == 0 }
    }

    /// All zeros: what nanopb writes for a fixed-size field it was never sent.
    static func isZeroFill(_ content: FieldContent) -> Bool {
        switch content {
        case .single(let value): return isZero(value)
        case .repeated(let values): return values.allSatisfy(isZero)
        case .map: return false
        }
    }

    private static func isZero(_ value: ProtoValue) -> Bool {
        switch value {
        case .bytes(let b), .string(let b): return b.allSatisfy { $0 == 0 }
        case .message(let m): return m.presentFieldNumbers.allSatisfy { m.content(number: $0).map(isZeroFill) ?? true }
        default: return value.isImplicitDefault
        }
    }

    private static func describe(_ content: FieldContent?) -> String {
        switch content {
        case nil: "absent"
        case .single(let v)?: "\(v)"
        case .repeated(let v)?: "\(v.count) elements"
        case .map(let m)?: "\(m.count) map entries"
        }
    }
}
