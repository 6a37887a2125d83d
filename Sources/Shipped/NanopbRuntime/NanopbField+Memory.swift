// NanopbField's internals: allocation through the counted hooks, the replace-then-free of repeated
// fields, C strings and bytes arrays, enum slots of any width, and the memcpy copy-out. Layout and
// ownership rules: NanopbField.swift.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNanopb

extension NanopbField {
    // MARK: Internals

    /// Offset of the data in a `pb_bytes_array_t` (C's offsetof(pb_bytes_array_t, bytes)).
    static let bytesOffset = MemoryLayout<pb_bytes_array_t>.offset(of: \pb_bytes_array_t.bytes)!

    static func buffer<T>(_ elements: UnsafeMutablePointer<T>?, _ count: pb_size_t) -> UnsafeMutableBufferPointer<T> {
        guard let elements, count > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        // SAFETY: repeated fields keep `count` initialised elements at `elements` (decoder and setters).
        return UnsafeMutableBufferPointer(start: elements, count: Int(count))
    }

    /// calloc'd (zeroed) storage for `count` values; nil (reported) on failure.
    @usableFromInline static func allocate<T>(_: T.Type, count: Int) -> UnsafeMutablePointer<T>? {
        // SAFETY: fresh, zeroed, suitably aligned (malloc alignment covers every C field type);
        // zero is a valid bit pattern for every nanopb field type (NULL, 0, false).
        allocate(count: count, stride: MemoryLayout<T>.stride)?.bindMemory(to: T.self, capacity: Swift.max(count, 1))
    }

    /// calloc'd (zeroed) storage for `count` elements of `stride` bytes; nil (reported) on failure.
    @usableFromInline static func allocate(count: Int, stride: Int) -> UnsafeMutableRawPointer? {
        guard let memory = wp_pb_counted_calloc(Swift.max(count, 1), stride) else {
            NanopbDiagnostics.report("allocating \(count) x \(stride) bytes", "out of memory")
            return nil
        }
        return memory
    }

    /// Allocates and fills the replacement first; frees the old array only once the new one is
    /// complete, so a failure anywhere leaves the field exactly as it was.
    static func replacingArray<T>(
        of _: T.Type, count: Int, old: UnsafeMutablePointer<T>?, oldCount: pb_size_t,
        release: (UnsafeMutablePointer<T>?, pb_size_t) -> Void,
        fill: (UnsafeMutableBufferPointer<T>) -> Bool
    ) -> (UnsafeMutablePointer<T>?, pb_size_t) {
        guard count <= Int(pb_size_t.max) else {
            NanopbDiagnostics.report("setting a repeated field", "\(count) elements exceed pb_size_t")
            return (old, oldCount)
        }
        if count == 0 {
            release(old, oldCount)
            return (nil, 0)
        }
        guard let fresh = allocate(T.self, count: count) else { return (old, oldCount) }
        let slots = UnsafeMutableBufferPointer(start: fresh, count: count)
        guard fill(slots) else {
            release(fresh, pb_size_t(count))  // zeroed slots release as absent
            return (old, oldCount)
        }
        release(old, oldCount)
        return (fresh, pb_size_t(count))
    }

    /// Frees each element of a repeated string/bytes field, then the array.
    static func releaseEach<T>(_ elements: UnsafeMutablePointer<UnsafeMutablePointer<T>?>?, _ count: pb_size_t) {
        // SAFETY: each non-null element is its own malloc'd string/bytes, owned by this array only.
        // SAFETY: each of the `count` elements is its own allocation (or NULL), owned by this array.
        if let elements { for index in 0..<Int(count) { wp_pb_counted_free((elements + index).pointee) } }
        wp_pb_counted_free(elements)
    }

    /// Releases each struct of a repeated message field with `descriptor`, then the array.
    static func releaseStructs<E>(_ elements: UnsafeMutablePointer<E>?, _ count: pb_size_t, _ descriptor: pb_msgdesc_t) {
        var descriptor = descriptor
        // SAFETY: each element is a struct of the descriptor's type inside this array.
        let slots = buffer(elements, count)
        for index in slots.indices { wp_pb_release(&descriptor, slots.baseAddress! + index) }
        wp_pb_counted_free(elements)
    }

    static func cString(_ value: String) -> UnsafeMutablePointer<CChar>? {
        var value = value
        return value.withUTF8 { utf8 in
            guard let memory = allocate(CChar.self, count: utf8.count + 1) else { return nil }
            // SAFETY: `memory` holds utf8.count + 1 bytes: the UTF-8 then the NUL calloc left.
            if let base = utf8.baseAddress { memcpy(memory, base, utf8.count) }
            return memory
        }
    }

    static func bytesArray(_ value: [UInt8]) -> UnsafeMutablePointer<pb_bytes_array_t>? {
        guard value.count <= Int(pb_size_t.max),
              let memory = allocate(UInt8.self, count: bytesOffset + value.count) else { return nil }
        // SAFETY: `memory` holds the header plus value.count bytes (PB_BYTES_ARRAY_T_ALLOCSIZE).
        let array = UnsafeMutableRawPointer(memory).bindMemory(to: pb_bytes_array_t.self, capacity: 1)
        array.pointee.size = pb_size_t(value.count)
        value.withUnsafeBytes { source in
            if let base = source.baseAddress { memcpy(UnsafeMutableRawPointer(memory) + bytesOffset, base, value.count) }
        }
        return array
    }

    // Every read and write of field memory below goes through a typed pointer's `pointee` or through
    // memcpy, never `UnsafeRawPointer.load` / `storeBytes` or a generic standard-library copy: in
    // the debug builds the sanitizer legs use, those are calls into the (uninstrumented) standard
    // library, so AddressSanitizer and ThreadSanitizer would not see an out-of-bounds or racing
    // access there. A typed `pointee` access is emitted in this module and is instrumented; memcpy
    // is intercepted by both sanitizers and checked by valgrind.

    /// Reads a C enum slot as Int32. Protobuf enum values fit in int32, so the C enum is int-sized
    /// on every ABI this runs on; other sizes are handled rather than assumed away.
    static func loadEnum<C>(_ slot: UnsafeMutablePointer<C>) -> Int32 {
        loadEnum(UnsafeMutableRawPointer(slot), size: MemoryLayout<C>.size)
    }

    static func storeEnum<C>(_ value: Int32, _ slot: UnsafeMutablePointer<C>) {
        storeEnum(value, UnsafeMutableRawPointer(slot), size: MemoryLayout<C>.size)
    }

    /// `loadEnum` for a slot of `size` bytes: one copy for every enum type.
    @usableFromInline static func loadEnum(_ slot: UnsafeMutableRawPointer, size: Int) -> Int32 {
        // SAFETY: `slot` is a live enum field or element of `size` bytes (written by nanopb's
        // decoder as an integer of that size, or by `storeEnum`); it is read as that integer.
        switch size {
        case 1: return Int32(slot.withMemoryRebound(to: Int8.self, capacity: 1) { $0.pointee })
        case 2: return Int32(slot.withMemoryRebound(to: Int16.self, capacity: 1) { $0.pointee })
        case 8: return Int32(truncatingIfNeeded: slot.withMemoryRebound(to: Int64.self, capacity: 1) { $0.pointee })
        default: return slot.withMemoryRebound(to: Int32.self, capacity: 1) { $0.pointee }
        }
    }

    /// `storeEnum` into a slot of `size` bytes.
    static func storeEnum(_ value: Int32, _ slot: UnsafeMutableRawPointer, size: Int) {
        // SAFETY: `slot` is this builder's own allocation of (at least) `size` bytes.
        switch size {
        case 1: slot.withMemoryRebound(to: Int8.self, capacity: 1) { $0.pointee = Int8(truncatingIfNeeded: value) }
        case 2: slot.withMemoryRebound(to: Int16.self, capacity: 1) { $0.pointee = Int16(truncatingIfNeeded: value) }
        case 8: slot.withMemoryRebound(to: Int64.self, capacity: 1) { $0.pointee = Int64(value) }
        default: slot.withMemoryRebound(to: Int32.self, capacity: 1) { $0.pointee = value }
        }
    }

    /// `count` values of a trivial C type at `source`, copied into a new array with memcpy.
    static func copyOut<T>(_ source: UnsafeRawPointer, as _: T.Type, count: Int) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            // SAFETY: the caller passes `count` initialised values of the trivial type T at
            // `source` (a bytes array's data, a repeated scalar field); `buffer` holds `count`.
            if count > 0 { memcpy(buffer.baseAddress!, source, count * MemoryLayout<T>.stride) }
            initialized = count
        }
    }
}
