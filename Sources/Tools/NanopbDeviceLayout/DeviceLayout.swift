// What nanopb's generator made of each message of the schema with the schema's own options, as
// scripts/device-build.py writes it (layout.json), and the limits the device's decoder enforces
// because of it. The layout is nanopb's own reading of the options (max_length already turned
// into max_size + 1, inheritance and patterns resolved), so no option rule is re-implemented here.
// Shared by the device party of the proof and by the generator (facades that carry the limits).

import Foundation
import NanopbDeviceLimits

/// The device build's layout of every message (layout.json of scripts/device-build.py).
public struct DeviceLayout: Codable, Sendable {
    public struct Field: Codable, Sendable {
        public var name: String
        public var number: Int32
        /// `STATIC`, `POINTER` or `CALLBACK`.
        public var allocation: String
        /// `REQUIRED`, `OPTIONAL`, `SINGULAR`, `REPEATED`, `FIXARRAY` or `ONEOF`.
        public var rules: String
        /// nanopb's type: `STRING`, `BYTES`, `FIXED_LENGTH_BYTES`, `INT32`, `MESSAGE`, ...
        public var type: String
        public var maxSize: Int?
        public var maxCount: Int?
        /// The C type of one element (`int8_t`, `char`, `wild_Reading`, ...).
        public var cType: String
        /// The options that shaped this field, nanopb's names and text values.
        public var options: [String: String]
        /// For a static bytes field: how many bytes the compiled device holds (`applySizes`), which
        /// is max_size rounded up to the C struct's alignment; nil until measured.
        public var deviceBytes: Int?
        /// For an enum field: the bytes the compiled device stores it in (`packed_enum` and the
        /// like make it narrower than 4, and pb_decode refuses what does not fit); nil until measured.
        public var enumBytes: Int?
    }

    /// A field nanopb left out of the struct (`type:FT_IGNORE`).
    public struct Dropped: Codable, Sendable {
        public var name: String
        public var number: Int32
        public var options: [String: String]
    }

    public struct Message: Codable, Sendable {
        public var fullName: String
        public var cName: String
        public var fields: [Field]
        public var dropped: [Dropped]

        public func field(number: Int32) -> Field? { fields.first { $0.number == number } }
        public func dropped(number: Int32) -> Dropped? { dropped.first { $0.number == number } }
    }

    /// In the device driver's table order (its message index).
    public var messages: [Message]
    /// Whether the schema sets any nanopb option at all; when not, `messages` is empty.
    public var options: Bool

    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DeviceLayoutError(description: "cannot read the device layout \(path)")
        }
        do { self = try JSONDecoder().decode(DeviceLayout.self, from: data) } catch {
            throw DeviceLayoutError(description: "\(path) is not a device layout: \(error)")
        }
    }

    /// Records what the compiled device holds per static bytes field (`DeviceDriver.fieldSizes`).
    public mutating func applySizes(_ sizes: DeviceFieldSizes) {
        for m in messages.indices {
            for f in messages[m].fields.indices {
                guard let size = sizes.dataSize[m]?[messages[m].fields[f].number] else { continue }
                let field = messages[m].fields[f]
                if field.type == "BYTES" && field.allocation == "STATIC" { messages[m].fields[f].deviceBytes = size - sizes.bytesHeader }
                if field.type == "ENUM" || field.type == "UENUM" { messages[m].fields[f].enumBytes = size }
            }
        }
    }

    /// Message index in the driver's table, by full proto name.
    public func index(of fullName: String) -> Int? { messages.firstIndex { $0.fullName == fullName } }
    public func message(_ fullName: String) -> Message? { index(of: fullName).map { messages[$0] } }
}

/// What the compiled device checks sizes against (`device_driver --fields`).
public struct DeviceFieldSizes: Sendable {
    /// By message index, then field number: the C data size of one element.
    public var dataSize: [Int: [Int32: Int]] = [:]
    /// Bytes before the data in a static bytes field's struct (its `size` member).
    public var bytesHeader = 0

    public init() {}
}

/// A layout that cannot be read.
public struct DeviceLayoutError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(description: String) { self.description = description }
}

/// One limit the device's decoder enforces on one field: the shipped runtime's type, so the
/// tables generated into the facades (`--limits-from-options`) and the proof speak of one thing.
public typealias DeviceLimit = NanopbDeviceLimit

extension NanopbDeviceLimit {
    /// The messages pb_decode reports when this limit is exceeded.
    public var decodeErrors: Set<String> {
        switch kind {
        case .stringBytes: ["string overflow"]
        case .bytes: ["bytes overflow"]
        case .fixedBytes: ["incorrect fixed length bytes size"]
        case .count: ["array overflow"]
        case .fixedCount: ["wrong size for fixed count field", "array overflow"]
        case .integer: ["integer too large"]
        }
    }
}

extension DeviceLayout.Field {
    /// The device keeps nothing of this field (a callback with none set).
    public var isDroppedByDevice: Bool { allocation == "CALLBACK" }

    /// Why the device drops the field, in the schema's terms.
    public var dropReason: String {
        options["type"].map { "type = \($0), no callback set" }
            ?? "no max_size/max_count: nanopb's fallback FT_CALLBACK, no callback set"
    }

    /// Limits on the field as a whole (`count`/`fixedCount`) and on each of its values.
    public var limits: (whole: [DeviceLimit], value: [DeviceLimit]) {
        var whole: [DeviceLimit] = [], value: [DeviceLimit] = []
        if rules == "FIXARRAY", allocation == "POINTER", let maxCount {  // a fixed count binds pointer arrays too
            whole.append(DeviceLimit(field: name, kind: .fixedCount(count: maxCount), option: "fixed_count (max_count = \(maxCount))"))
        }
        guard allocation == "STATIC" else { return (whole, []) }
        if let maxCount {
            if rules == "FIXARRAY" {
                whole.append(DeviceLimit(field: name, kind: .fixedCount(count: maxCount), option: "fixed_count (max_count = \(maxCount))"))
            } else if rules == "REPEATED" {
                whole.append(DeviceLimit(field: name, kind: .count(max: maxCount), option: "max_count = \(maxCount)"))
            }
        }
        if let maxSize {
            switch type {
            case "STRING":
                let option = options["max_length"].map { "max_length = \($0)" } ?? "max_size = \(maxSize)"
                value.append(DeviceLimit(field: name, kind: .stringBytes(max: maxSize - 1), option: option))
            case "BYTES":
                let held = deviceBytes ?? maxSize
                let option = held == maxSize ? "max_size = \(maxSize)" : "max_size = \(maxSize) (the device's padded C struct holds \(held))"
                value.append(DeviceLimit(field: name, kind: .bytes(max: held), option: option))
            case "FIXED_LENGTH_BYTES":
                value.append(DeviceLimit(field: name, kind: .fixedBytes(size: maxSize), option: "fixed_length (max_size = \(maxSize))"))
            default: break
            }
        }
        if let bytes = enumBytes, bytes < 4 {
            // nanopb decodes an enum as a signed varint (UENUM: unsigned) of its C size.
            let range = Self.integerRanges[(type == "UENUM" ? "uint" : "int") + "\(bytes * 8)_t"]
            if let range { value.append(DeviceLimit(field: name, kind: .integer(low: range.low, high: range.high), option: "enum stored in \(bytes) byte\(bytes == 1 ? "" : "s") (\(cType))")) }
        }
        if let range = Self.integerRanges[cType], let proto = Self.protoRanges[type], range != proto {
            value.append(DeviceLimit(field: name, kind: .integer(low: range.low, high: range.high), option: "int_size = \(options["int_size"] ?? cType)"))
        }
        return (whole, value)
    }

    private static let integerRanges: [String: (low: Int128, high: Int128)] = [
        "int8_t": (-128, 127), "uint8_t": (0, 255), "int16_t": (-32768, 32767), "uint16_t": (0, 65535),
        "int32_t": (Int128(Int32.min), Int128(Int32.max)), "uint32_t": (0, Int128(UInt32.max)),
        "int64_t": (Int128(Int64.min), Int128(Int64.max)), "uint64_t": (0, Int128(UInt64.max)),
    ]
    /// The range of the proto type, for the varint integers int_size can narrow.
    private static let protoRanges: [String: (low: Int128, high: Int128)] = [
        "INT32": integerRanges["int32_t"]!, "SINT32": integerRanges["int32_t"]!, "UINT32": integerRanges["uint32_t"]!,
        "INT64": integerRanges["int64_t"]!, "SINT64": integerRanges["int64_t"]!, "UINT64": integerRanges["uint64_t"]!,
    ]
}
