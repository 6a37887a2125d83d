// Encoding and decoding through nanopb, failing with typed errors (NanopbError).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNanopb

extension NanopbMsg {
    /// Decodes a message under the standard allocation budget (`NanopbDecodeOptions.standard`).
    /// Hostile input is safe: it fails with `.decodeFailed`, naming the reason and the position
    /// where decoding stopped (for a failure inside a submessage, nanopb reports the end of the
    /// enclosing length-delimited field; for an exceeded budget, the position of the allocation
    /// that was refused).
    @inlinable
    public init(serializedBytes bytes: some Collection<UInt8>) throws(NanopbError) {
        try self.init(serializedBytes: bytes, options: .standard)
    }

    /// Decodes a message with explicit limits (e.g. a larger allocation budget for trusted input).
    ///
    /// Inlinable so the caller specialises it for its collection type: reached unspecialised, the
    /// generic `withContiguousStorageIfAvailable` call and the generic `Result` it returned looked
    /// up type metadata on every decode (~390 of the ~19,300 instructions of a 356-byte chat
    /// packet, callgrind). The decode itself is `_decode`, shared by every specialisation.
    @inlinable
    public init(serializedBytes bytes: some Collection<UInt8>, options: NanopbDecodeOptions) throws(NanopbError) {
        let box = Self._newBox()
        let failure = bytes.withContiguousStorageIfAvailable { box._decode($0, options: options) }
            ?? Array(bytes).withUnsafeBufferPointer { box._decode($0, options: options) }
        if let failure { throw failure }
        self.init(box: box)
    }

    /// A fresh box for `Storage` (the initialiser is SPI, which inlinable code cannot name).
    @usableFromInline
    static func _newBox() -> NanopbBox { NanopbBox(emptyOf: Storage.self) }

    /// The message's encoding. Deterministic: fields in number order, elements in stored order.
    public func serializedBytes() throws(NanopbError) -> [UInt8] {
        try NanopbWire.encode(_pointer).get()
    }
}

/// Limits for one decode of untrusted bytes.
public struct NanopbDecodeOptions: Sendable, Hashable {
    /// How many bytes a decode may allocate for the message tree.
    ///
    /// With every field a pointer (`FT_POINTER`), two bytes of input -- an empty element of a
    /// repeated submessage -- become a whole heap-allocated struct, so without a limit a peer can
    /// turn 1 MiB of input into 73 MiB of memory. The budget is charged inside nanopb's decoder
    /// before each allocation (patches/nanopb/0200-allocation-budget.patch): the bytes it adds plus
    /// 16 for every new heap block; frees are not credited, but for the own block of a oneof member
    /// that another member replaces (patch 0210). A decode that would pass it fails with
    /// `.budgetExceeded(budget:)` at the offset of the refused allocation; nothing leaks.
    public enum AllocationBudget: Sendable, Hashable {
        /// `perInputByte` bytes for every input byte, plus `fixed`: memory stays linear in the input.
        case scaled(perInputByte: Int, fixed: Int)
        /// At most this many bytes, whatever the input size.
        case bytes(Int)
        /// No limit: nanopb's own behaviour. Only for bytes this process produced itself.
        case unlimited

        /// The default: 6 bytes per input byte plus 1 MiB. Peak memory of a decode stays below
        /// 8 x the input + 1 MiB (measured by `make peak-memory`, docs/shipped-layer.md); a
        /// message whose tree legitimately needs more (many small scalar fields per input byte,
        /// above 1 MiB of input) needs a larger budget passed explicitly.
        @inlinable public static var standard: AllocationBudget { .scaled(perInputByte: 6, fixed: 1 << 20) }

        /// The limit in bytes for an input of `count` bytes; nil when unlimited. Saturates.
        public func limit(forInputSize count: Int) -> Int? {
            switch self {
            case .unlimited: return nil
            case .bytes(let limit): return Swift.max(limit, 0)
            case .scaled(let perByte, let fixed):
                let (scaled, overflow) = Swift.max(perByte, 0).multipliedReportingOverflow(by: count)
                let (total, overflow2) = scaled.addingReportingOverflow(Swift.max(fixed, 0))
                return overflow || overflow2 ? Int.max : total
            }
        }
    }

    /// The allocation budget of the decode.
    public var allocationBudget: AllocationBudget

    @inlinable public init(allocationBudget: AllocationBudget = .standard) {
        self.allocationBudget = allocationBudget
    }

    /// What `init(serializedBytes:)` uses: the standard allocation budget.
    @inlinable public static var standard: NanopbDecodeOptions { NanopbDecodeOptions() }
}

extension NanopbBox {
    /// Decodes `bytes` (contiguous, kept alive by the caller for this call) into this box's
    /// struct, which must be fresh (zeroed); nil on success. On failure the struct is left empty.
    @usableFromInline
    func _decode(_ bytes: UnsafeBufferPointer<UInt8>, options: NanopbDecodeOptions) -> NanopbError? {
        // SAFETY: `raw` is this box's struct of `size` bytes, of the type `descriptor` describes.
        withUnsafePointer(to: descriptor) {
            NanopbWire.decode(bytes, into: raw, size: size, descriptor: $0,
                              budget: options.allocationBudget.limit(forInputSize: bytes.count))
        }
    }
}

/// The runtime's only calls into nanopb's encoder and decoder.
enum NanopbWire {
    /// Encodes with one sizing walk, which also records every submessage's size, and one writing
    /// walk that reads them instead of sizing each submessage again (NanopbSizeCache.swift).
    static func encode<S: NanopbStorage>(_ message: UnsafeMutablePointer<S>) -> Result<[UInt8], NanopbError> {
        var walks = NanopbEncodeWalks()
        return encode(message, walks: &walks)
    }

    /// Decodes into a zeroed struct of type `S`; see the untyped `decode` below.
    static func decode<S: NanopbStorage>(_ bytes: UnsafeBufferPointer<UInt8>, into target: UnsafeMutablePointer<S>, budget: Int?) -> NanopbError? {
        withUnsafePointer(to: S._descriptor) { decode(bytes, into: UnsafeMutableRawPointer(target), size: MemoryLayout<S>.size, descriptor: $0, budget: budget) }
    }

    /// Decodes into `target`, a zeroed struct of `size` bytes of the message type `descriptor`
    /// describes, charging at most `budget` allocated bytes (nil: no limit). On failure the struct
    /// is left zeroed (all fields absent). Not generic, so one copy serves every message type and
    /// a decode reaches it without type metadata.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableRawPointer, size: Int,
                       descriptor: UnsafePointer<pb_msgdesc_t>, budget: Int?) -> NanopbError? {
        var allowance = pb_budget_t(limit: budget.map { Swift.max($0, 0) } ?? 0, used: 0, exceeded_at: nil)
        // SAFETY: the stream reads at most `bytes.count` bytes from `bytes`, which the caller keeps
        // alive for this call. `target` is a zeroed struct of the descriptor's type, so the decoder
        // initialises it without leaking anything it overwrites. Recursion is bounded by the
        // nesting limit inside nanopb (patch 0100, PB_MAX_NESTING_DEPTH levels). The budget lives
        // on this frame and the stream (and its substreams) pointing at it end with wp_pb_decode.
        return withUnsafeMutablePointer(to: &allowance) { allowance in
            var stream = wp_pb_istream_from_buffer(bytes.baseAddress, bytes.count)
            if budget != nil { stream.budget = allowance }
            if wp_pb_decode(&stream, descriptor, target) { return nil }
            // nanopb already released every allocation on failure; zeroing also clears `which_` tags.
            memset(target, 0, size)
            if let refusedAt = allowance.pointee.exceeded_at, let base = bytes.baseAddress {
                // The refused allocation's position: a pointer into `bytes` (buffer streams advance
                // `state` through the caller's buffer).
                return .decodeFailed(reason: .budgetExceeded(budget: allowance.pointee.limit), offset: refusedAt - base)
            }
            return .decodeFailed(reason: reason(stream.errmsg), offset: bytes.count - stream.bytes_left)
        }
    }

    /// Deep copy by round trip into a zeroed struct of the same type. The bytes are this process's
    /// own encoding of a message that already exists, so the decode has no budget.
    static func copy<S: NanopbStorage>(from source: UnsafeMutablePointer<S>, into target: UnsafeMutablePointer<S>) -> NanopbError? {
        switch encode(source) {
        case .failure(let error): return error
        case .success(let bytes): return bytes.withUnsafeBufferPointer { decode($0, into: target, budget: nil) }
        }
    }

    /// The deepest submessage nesting the decoder accepts (PB_MAX_NESTING_DEPTH, patch 0100).
    static let maxNestingDepth = Int(PB_MAX_NESTING_DEPTH)

    static func reason(_ message: UnsafePointer<CChar>?) -> NanopbError.Reason {
        // SAFETY: nanopb's error messages are string literals in the runtime (static storage).
        guard let message else { return .other("(no message)") }
        let text = String(cString: message)
        return text == "nesting too deep" ? .nestingTooDeep(limit: maxNestingDepth) : NanopbError.Reason(nanopbMessage: text)
    }
}
