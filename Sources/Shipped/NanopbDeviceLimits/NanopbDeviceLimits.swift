// The limits of the device on the other end, carried by facades generated with
// `--limits-from-options`: the static limits the schema's nanopb options give the device's build
// (max_size, max_length, max_count, int_size, fixed_length, fixed_count), and a check that names
// every field of a built message the device's decoder would refuse. The facades themselves stay
// unbounded (every field FT_POINTER); the check lets an app refuse to send what the device drops.
//
// A module of its own, beside NanopbRuntime, so that a program whose facades were generated without
// the flag never links it: Swift keeps a type's metadata and conformance records even when no
// code calls it, and a linker's dead strip cannot remove them. Facades generated with the flag
// import this module; their target depends on the `NanopbDeviceLimits` product.

import CNanopb
import NanopbRuntime

/// One limit of the device's build on one field, as the schema's options set it.
public struct NanopbDeviceLimit: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A string of at most `max` bytes (the device keeps one more for the terminating NUL).
        case stringBytes(max: Int)
        /// A bytes field of at most `max` bytes.
        case bytes(max: Int)
        /// A bytes field of exactly `size` bytes, or empty.
        case fixedBytes(size: Int)
        /// A repeated field or map of at most `max` elements.
        case count(max: Int)
        /// A repeated field of exactly `count` elements whenever present.
        case fixedCount(count: Int)
        /// An integer within `low...high` (the device's C type, narrower than the proto type).
        case integer(low: Int128, high: Int128)
    }

    /// The field's proto name (the device's and the schema's term for it).
    public let field: String
    public let kind: Kind
    /// The option responsible, as the schema spells it (`max_size = 16`, `int_size = IS_8`).
    public let option: String

    public init(field: String, kind: Kind, option: String) {
        self.field = field
        self.kind = kind
        self.option = option
    }
}

/// One field of a message past one of the device's limits.
public struct NanopbDeviceLimitViolation: Sendable, Equatable, CustomStringConvertible {
    /// Dotted proto field path from the checked message (`sensors[1].name`).
    public let path: String
    public let limit: NanopbDeviceLimit
    /// What the value has (`17 bytes`, `9 elements`, `300`).
    public let actual: String

    /// `sensors[1].name: 17 bytes past max_size = 16`.
    public var description: String { "\(path): \(actual) past \(limit.option)" }
}

/// A C struct whose facade carries the device's limits (generated with `--limits-from-options`).
public protocol NanopbDeviceLimited: NanopbStorage {
    /// Every limit the device's build puts on this message's own fields, in field order.
    static var deviceLimits: [NanopbDeviceLimit] { get }
    /// Adds the violations of `message` and of the submessages the device keeps, paths prefixed
    /// with `path`. Generated; call `deviceLimitViolations()` instead.
    static func _collectDeviceLimitViolations(_ message: NanopbMsg<Self>, _ path: String, into check: inout NanopbDeviceLimitCheck)
}

extension NanopbMsg where Storage: NanopbDeviceLimited {
    /// Every limit the device's build puts on this message type's own fields.
    public static var deviceLimits: [NanopbDeviceLimit] { Storage.deviceLimits }

    /// Every field of this message, and of the submessages the device keeps, that the device's
    /// build would refuse; empty when the device accepts it. Fields the device drops (a callback
    /// with none set, `FT_IGNORE`) are not looked into. Limits are the schema's declared ones:
    /// a device may hold a byte or two more of a static bytes field (its C struct's padding),
    /// never less.
    public func deviceLimitViolations() -> [NanopbDeviceLimitViolation] {
        var check = NanopbDeviceLimitCheck()
        Storage._collectDeviceLimitViolations(self, "", into: &check)
        return check.violations
    }
}

/// Collects violations while generated code walks a message's C struct. Every pointer handed in
/// is a field of a message that is alive for the duration of the call.
public struct NanopbDeviceLimitCheck {
    public private(set) var violations: [NanopbDeviceLimitViolation] = []

    @_spi(NanopbFacade) public init() {}

    mutating func add(_ limit: NanopbDeviceLimit, _ path: String, _ actual: String) {
        violations.append(NanopbDeviceLimitViolation(path: path, limit: limit, actual: actual))
    }

    /// A value limit on a length (string or bytes).
    mutating func length(_ limit: NanopbDeviceLimit, _ path: String, _ length: Int) {
        switch limit.kind {
        case .stringBytes(let max) where length > max, .bytes(let max) where length > max:
            add(limit, path, "\(length) bytes")
        case .fixedBytes(let size) where length != 0 && length != size:
            add(limit, path, "\(length) bytes")
        default: break
        }
    }

    /// A count limit on a repeated field or map of `count` elements (0: absent, never a violation).
    @_spi(NanopbFacade) public mutating func count(_ limit: NanopbDeviceLimit, _ path: String, _ count: pb_size_t) {
        switch limit.kind {
        case .count(let max) where Int(count) > max, .fixedCount(let max) where count != 0 && Int(count) != max:
            add(limit, path, "\(count) elements")
        default: break
        }
    }

    @_spi(NanopbFacade) public mutating func string(_ limit: NanopbDeviceLimit, _ path: String, _ value: UnsafeMutablePointer<CChar>?) {
        // SAFETY: a present string is NUL-terminated (pb_dec_string and the runtime's setter);
        // its length is what the encoder sends.
        guard let value else { return }
        length(limit, path, strlen(value))
    }

    @_spi(NanopbFacade) public mutating func bytes(_ limit: NanopbDeviceLimit, _ path: String, _ value: UnsafeMutablePointer<pb_bytes_array_t>?) {
        guard let value else { return }
        length(limit, path, Int(value.pointee.size))
    }

    @_spi(NanopbFacade) public mutating func integer<T: BinaryInteger>(_ limit: NanopbDeviceLimit, _ path: String, _ value: UnsafeMutablePointer<T>?) {
        guard let value else { return }
        integer(limit, path, Int128(value.pointee))
    }

    mutating func integer(_ limit: NanopbDeviceLimit, _ path: String, _ value: Int128) {
        if case .integer(let low, let high) = limit.kind, value < low || value > high { add(limit, path, "\(value)") }
    }

    @_spi(NanopbFacade) public mutating func strings(_ limit: NanopbDeviceLimit, _ path: String,
                                                     _ elements: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ count: pb_size_t) {
        // SAFETY: `elements` holds `count` string pointers (the decoder and the setters write both).
        guard let elements else { return }
        for index in 0..<Int(count) { string(limit, "\(path)[\(index)]", (elements + index).pointee) }
    }

    @_spi(NanopbFacade) public mutating func byteArrays(_ limit: NanopbDeviceLimit, _ path: String,
                                                        _ elements: UnsafeMutablePointer<UnsafeMutablePointer<pb_bytes_array_t>?>?, _ count: pb_size_t) {
        // SAFETY: `elements` holds `count` bytes-array pointers.
        guard let elements else { return }
        for index in 0..<Int(count) { bytes(limit, "\(path)[\(index)]", (elements + index).pointee) }
    }

    @_spi(NanopbFacade) public mutating func integers<T: BinaryInteger>(_ limit: NanopbDeviceLimit, _ path: String,
                                                                       _ elements: UnsafeMutablePointer<T>?, _ count: pb_size_t) {
        // SAFETY: `elements` is one allocation of `count` initialised values.
        guard let elements else { return }
        for index in 0..<Int(count) { integer(limit, "\(path)[\(index)]", Int128((elements + index).pointee)) }
    }

    /// Walks a submessage the device keeps.
    @_spi(NanopbFacade) public mutating func message<Child: NanopbDeviceLimited>(_ child: NanopbMsg<Child>, _ path: String) {
        Child._collectDeviceLimitViolations(child, path + ".", into: &self)
    }

    /// Walks every element of a repeated submessage field.
    @_spi(NanopbFacade) public mutating func messages<Child: NanopbDeviceLimited>(_ children: [NanopbMsg<Child>], _ path: String) {
        for (index, child) in children.enumerated() { Child._collectDeviceLimitViolations(child, "\(path)[\(index)].", into: &self) }
    }
}
