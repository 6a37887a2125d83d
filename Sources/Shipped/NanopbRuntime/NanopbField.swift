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
//
// This file holds the readers; the setters are in NanopbField+Writing.swift, allocation, the
// replace-then-free of repeated fields and the typed enum loads and stores in NanopbField+Memory.swift,
// and the map-entry iterator in NanopbElements.swift.

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
    /// Swift runtime, which ASan did not see reading past the field (`wiremutate plant-legs`).
    @_transparent
    public static func scalar<T>(_ field: UnsafeMutablePointer<T>?, _ absent: T) -> T {
        guard let field else { return absent }
        // SAFETY: a non-null scalar field points to one initialised T (decoder or `storing`).
        return field.pointee
    }

    /// A singular enum, as the facade's open enum struct (unknown numbers survive). Transparent so
    /// that the facade builds its own enum struct from the number; the load is `loadEnum`'s.
    @_transparent
    public static func enumeration<C, E: RawRepresentable>(_ field: UnsafeMutablePointer<C>?, _ absent: E) -> E
    where E.RawValue == Int32 {
        guard let field else { return absent }
        return E(rawValue: loadEnum(UnsafeMutableRawPointer(field), size: MemoryLayout<C>.size)) ?? absent
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
}
