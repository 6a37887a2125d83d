// Field accessor primitives: the only code that reads or writes a nanopb struct's pointer fields.
// Generated facades call these (through `@_spi(NanopbFacade) import NanopbRuntime`); ordinary
// clients never see them.
//
// Layout, with every field FT_POINTER (see nanopb's pb_decode.c, decode_pointer_field and
// pb_release_single_field): a singular field is a pointer to one malloc'd value (NULL = absent); a
// string is a malloc'd NUL-terminated `char *`; bytes are one malloc'd `pb_bytes_array_t` (size
// header then data); a repeated field is `_count` plus one malloc'd array of elements, whose string
// and bytes elements are themselves malloc'd; a submessage is a malloc'd struct. pb_release frees
// all of it through pb_free (the counted hook of wireproof_pb_alloc.h), so every allocation here uses
// the counted calloc and every free the counted free, and every replaced
// allocation is freed exactly once, after its replacement exists (a failed allocation leaves the
// field unchanged and is reported, never a crash).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNanopb

@_spi(NanopbFacade) public enum NanopbField {
    // MARK: Reading

    /// A singular scalar (integer, float, bool); `absent` when the field is not set.
    /// `@_transparent` (here and in the scalar setter): inlined into the facade even in a debug
    /// build, so the load is of the concrete C type and instrumented by the sanitizers. In an
    /// unspecialised generic function it would be a value-witness call into the (uninstrumented)
    /// Swift runtime, which ASan did not see reading past the field (scripts/plant-bugs.sh).
    @_transparent
    public static func scalar<T>(_ field: UnsafeMutablePointer<T>?, _ absent: T) -> T {
        guard let field else { return absent }
        // SAFETY: a non-null scalar field points to one initialised T (decoder or `storing`).
        return field.pointee
    }

    /// A singular enum, as the facade's open enum struct (unknown numbers survive).
    public static func enumeration<C, E: RawRepresentable>(_ field: UnsafeMutablePointer<C>?, _ absent: E) -> E
    where E.RawValue == Int32 {
        guard let field else { return absent }
        return E(rawValue: loadEnum(field)) ?? absent
    }

    /// A singular string. Invalid UTF-8 is repaired in the returned String; the stored bytes are
    /// untouched. An embedded NUL (possible only in decoded input) ends the string, as in C.
    public static func string(_ field: UnsafeMutablePointer<CChar>?, _ absent: String) -> String {
        // SAFETY: both writers (nanopb's pb_dec_string and `storing(string:)`) NUL-terminate.
        guard let field else { return absent }
        return String(cString: field)
    }

    /// A singular bytes field.
    public static func bytes(_ field: UnsafeMutablePointer<pb_bytes_array_t>?, _ absent: [UInt8]) -> [UInt8] {
        guard let field else { return absent }
        // SAFETY: the allocation is PB_BYTES_ARRAY_T_ALLOCSIZE(size): the header then `size` bytes,
        // as both pb_dec_bytes and `storing(bytes:)` allocate it.
        return copyOut(UnsafeRawPointer(field) + bytesOffset, as: UInt8.self, count: Int(field.pointee.size))
    }

    /// A repeated scalar field.
    public static func array<T>(_ elements: UnsafeMutablePointer<T>?, _ count: pb_size_t) -> [T] {
        // SAFETY: `elements` is one allocation of at least `count` initialised values; the decoder
        // and the setters update the pointer and `_count` together.
        guard let elements, count > 0 else { return [] }
        return copyOut(UnsafeRawPointer(elements), as: T.self, count: Int(count))
    }

    /// A repeated enum field.
    public static func enumerations<C, E: RawRepresentable>(_ elements: UnsafeMutablePointer<C>?, _ count: pb_size_t) -> [E]
    where E.RawValue == Int32 {
        guard let elements else { return [] }
        // SAFETY: `index` is within the `count` elements at `elements`.
        return (0..<Int(count)).compactMap { index in E(rawValue: loadEnum(elements + index)) }
    }

    /// A repeated string field.
    public static func strings(_ elements: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ count: pb_size_t) -> [String] {
        guard let elements else { return [] }
        // SAFETY: `elements` holds `count` string pointers (concrete loads: instrumented).
        return (0..<Int(count)).map { string((elements + $0).pointee, "") }
    }

    /// A repeated bytes field.
    public static func byteArrays(_ elements: UnsafeMutablePointer<UnsafeMutablePointer<pb_bytes_array_t>?>?, _ count: pb_size_t) -> [[UInt8]] {
        guard let elements else { return [] }
        // SAFETY: `elements` holds `count` bytes-array pointers (concrete loads: instrumented).
        return (0..<Int(count)).map { bytes((elements + $0).pointee, []) }
    }

    /// The entries of a map field (a repeated entry message), for the facade to read key and value.
    public static func entries<E>(_ elements: UnsafeMutablePointer<E>?, _ count: pb_size_t) -> NanopbElements<E> {
        NanopbElements(elements, count)
    }

    /// A deep, owning copy of a submessage: what builder getters return, because a view into a
    /// builder's storage would dangle once a later setter replaced the field.
    public static func copy<T: NanopbStorage>(_ field: UnsafeMutablePointer<T>?) -> NanopbMsg<T> {
        guard let field else { return NanopbMsg<T>() }
        let box = NanopbBox(emptyOf: T.self)
        if let error = NanopbWire.copy(from: field, into: box.typed(T.self)) {
            NanopbDiagnostics.report("copy of \(T._swiftName)", error)
        }
        return NanopbMsg(box: box)
    }

    /// Deep copies of a repeated message field (builder getters).
    public static func copies<T: NanopbStorage>(_ elements: UnsafeMutablePointer<T>?, _ count: pb_size_t) -> [NanopbMsg<T>] {
        let slots = buffer(elements, count)
        return slots.indices.map { copy(slots.baseAddress! + $0) }
    }

    // MARK: Writing (builders only)

    /// Stores a scalar, reusing the existing allocation. With `omitting` set (fields without
    /// presence, proto3 implicit), storing that value clears the field, so it is not encoded.
    /// The comparison is bitwise, not `==`: `-0.0 == 0` but -0.0 is not the default and must be
    /// written (protobuf's proto3 rules; Google's runtimes and SwiftProtobuf compare bit patterns).
    @_transparent
    public static func storing<T: Equatable>(_ value: T, replacing old: UnsafeMutablePointer<T>?, omitting: T?) -> UnsafeMutablePointer<T>? {
        if let omitting, sameBits(value, omitting) {
            release(old)
            return nil
        }
        // SAFETY: `old` is this field's own allocation of one T (see `scalar`); a fresh one is
        // zeroed, and T is a trivial C scalar, so assigning initialises it.
        guard let slot = old ?? allocate(T.self, count: 1) else { return nil }
        slot.pointee = value
        return slot
    }

    /// Stores an enum's raw number into the C enum slot (open: any Int32 is kept).
    public static func storing<C, E: RawRepresentable & Equatable>(
        enumeration value: E, replacing old: UnsafeMutablePointer<C>?, omitting: E?
    ) -> UnsafeMutablePointer<C>? where E.RawValue == Int32 {
        if let omitting, value == omitting {
            release(old)
            return nil
        }
        guard let slot = old ?? allocate(C.self, count: 1) else { return nil }
        storeEnum(value.rawValue, slot)
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

    // MARK: Internals

    /// Bitwise equality of two scalars (integers, bools, floats: no padding bytes). Equal to `==`
    /// except for floats, where it tells -0.0 from 0 and compares NaNs by payload.
    @usableFromInline static func sameBits<T>(_ a: T, _ b: T) -> Bool {
        withUnsafeBytes(of: a) { left in withUnsafeBytes(of: b) { right in left.elementsEqual(right) } }
    }

    /// Offset of the data in a `pb_bytes_array_t` (C's offsetof(pb_bytes_array_t, bytes)).
    static let bytesOffset = MemoryLayout<pb_bytes_array_t>.offset(of: \pb_bytes_array_t.bytes)!

    static func buffer<T>(_ elements: UnsafeMutablePointer<T>?, _ count: pb_size_t) -> UnsafeMutableBufferPointer<T> {
        guard let elements, count > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        // SAFETY: repeated fields keep `count` initialised elements at `elements` (decoder and setters).
        return UnsafeMutableBufferPointer(start: elements, count: Int(count))
    }

    /// calloc'd (zeroed) storage for `count` values; nil (reported) on failure.
    @usableFromInline static func allocate<T>(_: T.Type, count: Int) -> UnsafeMutablePointer<T>? {
        guard let memory = wp_pb_counted_calloc(Swift.max(count, 1), MemoryLayout<T>.stride) else {
            NanopbDiagnostics.report("allocating \(count) x \(MemoryLayout<T>.stride) bytes", "out of memory")
            return nil
        }
        // SAFETY: fresh, zeroed, suitably aligned (malloc alignment covers every C field type);
        // zero is a valid bit pattern for every nanopb field type (NULL, 0, false).
        return memory.bindMemory(to: T.self, capacity: Swift.max(count, 1))
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
        // SAFETY: `slot` is a live enum field or element of type C (written by nanopb's decoder as
        // an integer of C's size, or by `storeEnum`); it is read as the integer of that size.
        switch MemoryLayout<C>.size {
        case 1: return Int32(slot.withMemoryRebound(to: Int8.self, capacity: 1) { $0.pointee })
        case 2: return Int32(slot.withMemoryRebound(to: Int16.self, capacity: 1) { $0.pointee })
        case 8: return Int32(truncatingIfNeeded: slot.withMemoryRebound(to: Int64.self, capacity: 1) { $0.pointee })
        default: return slot.withMemoryRebound(to: Int32.self, capacity: 1) { $0.pointee }
        }
    }

    static func storeEnum<C>(_ value: Int32, _ slot: UnsafeMutablePointer<C>) {
        // SAFETY: `slot` is this builder's own allocation of (at least) one C.
        switch MemoryLayout<C>.size {
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

/// The elements of a repeated field (map entries), read one by one through typed `pointee` loads.
/// `next()` is `@_transparent`, so a `for … in` in a facade inlines it with the concrete entry type
/// even in a debug build, and the load is instrumented (a standard-library buffer iterator, or an
/// unspecialised generic load, would be a call into the uninstrumented runtime). Valid while the
/// message that owns the array is alive and unchanged.
@_spi(NanopbFacade) public struct NanopbElements<Element>: Sequence, IteratorProtocol {
    @usableFromInline let base: UnsafeMutablePointer<Element>?
    @usableFromInline let count: Int
    @usableFromInline var index = 0

    @usableFromInline init(_ base: UnsafeMutablePointer<Element>?, _ count: pb_size_t) {
        self.base = base
        self.count = base == nil ? 0 : Int(count)
    }

    public var underestimatedCount: Int { count - index }

    @_transparent
    public mutating func next() -> Element? {
        guard index < count, let base else { return nil }
        // SAFETY: repeated fields keep `count` initialised elements at `base` (decoder and setters).
        let element = (base + index).pointee
        index += 1
        return element
    }
}
