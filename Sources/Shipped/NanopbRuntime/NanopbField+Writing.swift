// Field setters of NanopbField (builders only): each stores a value in a nanopb struct's pointer
// field, freeing what it replaces only once the replacement exists. Layout and ownership rules:
// NanopbField.swift.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNanopb

@_spi(NanopbFacade) extension NanopbField {
    // MARK: Writing (builders only)

    /// Stores a scalar, reusing the existing allocation. With `omitting` set (fields without
    /// presence, proto3 implicit), storing that value clears the field, so it is not encoded.
    /// The comparison is bitwise, not `==`: `-0.0 == 0` but -0.0 is not the default and must be
    /// written (protobuf's proto3 rules; Google's runtimes and SwiftProtobuf compare bit patterns).
    ///
    /// `@_transparent` only to hand the value's bytes to `storingBits`, which does the work once for
    /// every scalar type: a facade has a setter per field, so each is just this call.
    @_transparent
    public static func storing<T: Equatable>(_ value: T, replacing old: UnsafeMutablePointer<T>?, omitting: T?) -> UnsafeMutablePointer<T>? {
        let slot = storingBits(bits(of: value), omitting: omitting.map { bits(of: $0) }, size: MemoryLayout<T>.size, replacing: old)
        // SAFETY: `slot` is `old` or a fresh zeroed allocation of `size` bytes, now holding `value`.
        return slot?.assumingMemoryBound(to: T.self)
    }

    /// A scalar's bit pattern, zero-extended: passed by value, so a setter keeps no temporary in
    /// memory (which would also cost it a stack protector).
    @_transparent @usableFromInline
    static func bits<T>(of value: T) -> UInt64 {
        switch MemoryLayout<T>.size {
        case 1: return UInt64(unsafeBitCast(value, to: UInt8.self))
        case 2: return UInt64(unsafeBitCast(value, to: UInt16.self))
        case 4: return UInt64(unsafeBitCast(value, to: UInt32.self))
        default: return unsafeBitCast(value, to: UInt64.self)
        }
    }

    /// The scalar setter's work on a bit pattern: `bits` (of a `size`-byte scalar) replaces the
    /// field `old` (one allocation of `size` bytes, or nil), or clears it when equal to `omitting`.
    /// Returns the field's new pointer; on a failed allocation nil (reported).
    @usableFromInline @inline(never)
    static func storingBits(_ bits: UInt64, omitting: UInt64?, size: Int, replacing old: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        if bits == omitting {
            wp_pb_counted_free(old)
            return nil
        }
        guard let slot = old ?? allocate(count: 1, stride: size) else { return nil }
        // SAFETY: `slot` holds `size` bytes (the field's own allocation, or a fresh one); the
        // scalar is stored as the unsigned integer of its size, so its bit pattern is kept exactly.
        switch size {
        case 1: slot.withMemoryRebound(to: UInt8.self, capacity: 1) { $0.pointee = UInt8(truncatingIfNeeded: bits) }
        case 2: slot.withMemoryRebound(to: UInt16.self, capacity: 1) { $0.pointee = UInt16(truncatingIfNeeded: bits) }
        case 4: slot.withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee = UInt32(truncatingIfNeeded: bits) }
        default: slot.withMemoryRebound(to: UInt64.self, capacity: 1) { $0.pointee = bits }
        }
        return slot
    }

    /// Stores an enum's raw number into the C enum slot (open: any Int32 is kept). Transparent for
    /// the same reason as the scalar setter: the work is `storingEnum`'s, once for every enum.
    @_transparent
    public static func storing<C, E: RawRepresentable & Equatable>(
        enumeration value: E, replacing old: UnsafeMutablePointer<C>?, omitting: E?
    ) -> UnsafeMutablePointer<C>? where E.RawValue == Int32 {
        let slot = storingEnum(value.rawValue, omit: omitting == value, size: MemoryLayout<C>.size, replacing: old)
        // SAFETY: `slot` is `old` or a fresh zeroed allocation of one C, now holding the number.
        return slot?.assumingMemoryBound(to: C.self)
    }

    /// The enum setter's work: `raw` into the enum slot `old` of `size` bytes (allocated when nil),
    /// or the slot freed when `omit`. Returns the field's new pointer; on a failed allocation nil.
    @usableFromInline @inline(never)
    static func storingEnum(_ raw: Int32, omit: Bool, size: Int, replacing old: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        if omit {
            wp_pb_counted_free(old)
            return nil
        }
        guard let slot = old ?? allocate(count: 1, stride: size) else { return nil }
        storeEnum(raw, slot, size: size)
        return slot
    }

    /// Stores a string as a malloc'd C string; with `omitEmpty`, "" clears the field.
    public static func storing(string value: String, replacing old: UnsafeMutablePointer<CChar>?, omitEmpty: Bool) -> UnsafeMutablePointer<CChar>? {
        if omitEmpty && value.isEmpty {
            release(old)
            return nil
        }
        guard let fresh = cString(value) else { return old }
        release(old)
        return fresh
    }

    /// Stores bytes as a malloc'd `pb_bytes_array_t`; with `omitEmpty`, [] clears the field.
    public static func storing(bytes value: [UInt8], replacing old: UnsafeMutablePointer<pb_bytes_array_t>?, omitEmpty: Bool) -> UnsafeMutablePointer<pb_bytes_array_t>? {
        if omitEmpty && value.isEmpty {
            release(old)
            return nil
        }
        guard let fresh = bytesArray(value) else { return old }
        release(old)
        return fresh
    }

    /// Stores `value` in a fresh slot: its tree is adopted when `value` was the only reference to
    /// an owning message (the usual `$0.child = .with { ... }`), deep-copied otherwise.
    public static func storing<T: NanopbStorage>(message value: consuming NanopbMsg<T>, replacing old: UnsafeMutablePointer<T>?) -> UnsafeMutablePointer<T>? {
        guard let fresh = allocate(T.self, count: 1) else { return old }
        if let error = adoptOrCopy(&value, into: fresh) {
            wp_pb_counted_free(fresh)
            NanopbDiagnostics.report("setting a \(T._swiftName) field", error)
            return old
        }
        release(message: old)
        return fresh
    }

    /// Fills the zeroed struct `slot` with `value`'s content. When `value` owns its allocation and
    /// no other message (copy or view) holds its box, the tree moves: the top-level struct is copied
    /// bitwise (its pointers now belong to `slot`'s tree) and `value`'s struct is zeroed, so its box
    /// later releases nothing but the struct itself -- O(1) in the size of the tree. Otherwise the
    /// tree is shared and is deep-copied by an encode/decode round trip (copy only when shared).
    static func adoptOrCopy<T: NanopbStorage>(_ value: inout NanopbMsg<T>, into slot: UnsafeMutablePointer<T>) -> NanopbError? {
        if value.isOwning && isKnownUniquelyReferenced(&value._owner) {
            // SAFETY: uniqueness proves no other value can read or release `value`'s tree; `slot`
            // is a zeroed struct of the same type that owns nothing yet. After the copy exactly one
            // struct (`slot`) points at the tree, and the zeroed source frees nothing on deinit.
            slot.update(from: value._pointer, count: 1)
            memset(value._pointer, 0, MemoryLayout<T>.size)
            return nil
        }
        return NanopbWire.copy(from: value._pointer, into: slot)
    }

    /// Replaces a repeated scalar field; returns the new pointer and count.
    public static func storing<T>(array values: [T], replacing old: UnsafeMutablePointer<T>?, count oldCount: pb_size_t) -> (UnsafeMutablePointer<T>?, pb_size_t) {
        replacingArray(of: T.self, count: values.count, old: old, oldCount: oldCount, release: { p, _ in release(p) }) { slots in
            // SAFETY: `slots` holds values.count zeroed elements of the trivial C scalar type T.
            values.withUnsafeBytes { source in
                if let from = source.baseAddress { memcpy(slots.baseAddress!, from, source.count) }
            }
            return true
        }
    }

    /// Replaces a repeated enum field.
    public static func storing<C, E: RawRepresentable>(enumerations values: [E], replacing old: UnsafeMutablePointer<C>?, count oldCount: pb_size_t) -> (UnsafeMutablePointer<C>?, pb_size_t)
    where E.RawValue == Int32 {
        replacingArray(of: C.self, count: values.count, old: old, oldCount: oldCount, release: { p, _ in release(p) }) { slots in
            for (index, value) in values.enumerated() {
                // SAFETY: `index` < count, the number of zeroed elements `slots` holds.
                storeEnum(value.rawValue, slots.baseAddress! + index)
            }
            return true
        }
    }

    /// Replaces a repeated string field.
    public static func storing(strings values: [String], replacing old: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count oldCount: pb_size_t) -> (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, pb_size_t) {
        replacingArray(of: UnsafeMutablePointer<CChar>?.self, count: values.count, old: old, oldCount: oldCount, release: releaseEach) { slots in
            for (index, value) in values.enumerated() {
                guard let copy = cString(value) else { return false }
                slots[index] = copy
            }
            return true
        }
    }

    /// Replaces a repeated bytes field.
    public static func storing(byteArrays values: [[UInt8]], replacing old: UnsafeMutablePointer<UnsafeMutablePointer<pb_bytes_array_t>?>?, count oldCount: pb_size_t) -> (UnsafeMutablePointer<UnsafeMutablePointer<pb_bytes_array_t>?>?, pb_size_t) {
        replacingArray(of: UnsafeMutablePointer<pb_bytes_array_t>?.self, count: values.count, old: old, oldCount: oldCount, release: releaseEach) { slots in
            for (index, value) in values.enumerated() {
                guard let copy = bytesArray(value) else { return false }
                slots[index] = copy
            }
            return true
        }
    }

    /// Replaces a repeated message field with `values`, adopting each uniquely owned element's
    /// tree and deep-copying the shared ones (see `adoptOrCopy`).
    public static func storing<T: NanopbStorage>(messages values: consuming [NanopbMsg<T>], replacing old: UnsafeMutablePointer<T>?, count oldCount: pb_size_t) -> (UnsafeMutablePointer<T>?, pb_size_t) {
        storing(entries: values.count, descriptor: T._descriptor, replacing: old, count: oldCount) { index, slot in
            if let error = adoptOrCopy(&values[index], into: slot) {
                NanopbDiagnostics.report("setting a repeated \(T._swiftName) field", error)
                return false
            }
            return true
        }
    }

    /// Replaces a map field (a repeated entry message, released with `descriptor`). `fill` writes
    /// the key and value of each zeroed entry and returns false on failure, which keeps the old map.
    public static func storing<E>(
        entries count: Int, descriptor: pb_msgdesc_t, replacing old: UnsafeMutablePointer<E>?, count oldCount: pb_size_t,
        fill: (Int, UnsafeMutablePointer<E>) -> Bool
    ) -> (UnsafeMutablePointer<E>?, pb_size_t) {
        let release: (UnsafeMutablePointer<E>?, pb_size_t) -> Void = { elements, count in
            releaseStructs(elements, count, descriptor)
        }
        return replacingArray(of: E.self, count: count, old: old, oldCount: oldCount, release: release) { slots in
            for index in slots.indices where !fill(index, slots.baseAddress! + index) { return false }
            return true
        }
    }

    /// Frees a scalar, string or bytes field (or any plain malloc'd pointer field).
    public static func release<T>(_ field: UnsafeMutablePointer<T>?) {
        wp_pb_counted_free(field)
    }

    /// Releases a submessage's tree with its own descriptor, then frees it.
    public static func release<T: NanopbStorage>(message field: UnsafeMutablePointer<T>?) {
        guard let field else { return }
        var descriptor = T._descriptor
        // SAFETY: `field` is a malloc'd struct of T's message type owned by this tree.
        wp_pb_release(&descriptor, field)
        wp_pb_counted_free(field)
    }
}
