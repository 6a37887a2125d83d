// NanopbBox: the single owner of one nanopb C struct, and the storage protocol that binds a
// generated C struct to the generic message type.
//
// Unsafe surface: this file allocates and frees the struct. Every other file reaches the memory
// only through a pointer whose lifetime a box guarantees.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNanopb

/// Compile-time version marker. Generated facades reference it, so facades generated for another
/// runtime version fail to compile instead of misbehaving. Bump it (and the generator's constant)
/// whenever the contract between runtime and generated code changes.
public enum NanopbRuntimeVersion_1 {}

/// Owns one heap-allocated, address-stable nanopb C struct and the tree of allocations hanging off
/// it. On deinit the tree is released with nanopb's own `pb_release` (which frees every pointer
/// field recursively) and then the struct itself is freed.
///
/// Ordinary clients cannot do anything with a box; it is public only so the storage protocol can
/// name it. Messages (owning or view) retain the box whose allocation they point into.
///
/// `@unchecked Sendable` because the struct is never written after the box is shared: the only
/// writer is a `Builder`, which is `~Copyable`, holds the box exclusively and publishes it by being
/// consumed (`build()`), and `modifying` writes in place only after `isKnownUniquelyReferenced`
/// proves no other value can observe the box. Concurrent reads of immutable memory need no lock.
public final class NanopbBox: @unchecked Sendable {
    /// The C struct. SAFETY: allocated (zeroed) in `init`, freed only in `deinit`; never null.
    @_spi(NanopbFacade) public let raw: UnsafeMutableRawPointer
    /// Descriptor of the struct's message type; `pb_release` walks the tree with it.
    let descriptor: pb_msgdesc_t
    /// The struct's size in bytes (`MemoryLayout` of the storage type; the block may be larger).
    let size: Int

    /// A zero-initialised struct of `Storage`'s message type (every field absent).
    @_spi(NanopbFacade) public init<Storage: NanopbStorage>(emptyOf _: Storage.Type) {
        // Zero size is impossible for a C struct, but calloc(0) may return NULL; ask for one byte.
        let size = Swift.max(MemoryLayout<Storage>.size, 1)
        // Through the counted hook (wireproof_pb_alloc.h), like every block of a tree.
        guard let memory = wp_pb_counted_calloc(1, size) else {
            // The same policy as every Swift allocation: running out of memory for a struct of a
            // few hundred bytes is not a recoverable condition.
            fatalError("NanopbRuntime: out of memory allocating \(size) bytes")
        }
        raw = memory
        descriptor = Storage._descriptor
        self.size = MemoryLayout<Storage>.size
    }

    deinit {
        // SAFETY: `raw` is this box's own allocation of the descriptor's struct type. Every pointer
        // field in it was allocated through the counted hooks (by nanopb's decoder or the runtime's
        // setters), so nanopb's pb_free of each is valid, and nothing else references the tree once
        // the last message holding this box is gone.
        withUnsafePointer(to: descriptor) { wp_pb_release($0, raw) }
        wp_pb_counted_free(raw)
    }

    /// The struct as a typed pointer. The caller must pass the storage type the box was made for.
    func typed<Storage>(_: Storage.Type) -> UnsafeMutablePointer<Storage> {
        // SAFETY: boxes are created only by `init(emptyOf:)` for a specific storage type and are
        // only ever read back as that type (NanopbMsg<S> pairs a box with pointers of type S).
        raw.assumingMemoryBound(to: Storage.self)
    }
}

/// Implemented (by generated code, one line per message) by the nanopb C struct of every message,
/// binding it to its descriptor. Per-message behaviour that must survive dynamic dispatch — the
/// generic `NanopbMsg` shares one conformance for Equatable, CustomStringConvertible, ... — is a
/// requirement here, never a member of a constrained extension.
public protocol NanopbStorage {
    /// The nanopb descriptor generated for this struct (`<struct>_msg`).
    @_spi(NanopbFacade) static var _descriptor: pb_msgdesc_t { get }
    /// One shared, never-written empty value, returned for absent submessages and `init()`, so
    /// reading an absent field does not allocate. Must be a `static let`.
    @_spi(NanopbFacade) static var _emptyBox: NanopbBox { get }
    /// The facade's Swift type name, for descriptions.
    static var _swiftName: String { get }
    /// Renders a message for `description`; the default prints the name and canonical bytes.
    static func _describe(_ message: NanopbMsg<Self>) -> String
}

extension NanopbStorage {
    public static func _describe(_ message: NanopbMsg<Self>) -> String {
        guard let bytes = try? message.serializedBytes() else { return "\(_swiftName)(<unencodable>)" }
        var text = _swiftName + "("
        for (index, byte) in bytes.enumerated() {
            if index > 0 { text += " " }
            if byte < 16 { text += "0" }
            text += String(byte, radix: 16)
        }
        return text + ")"
    }
}
