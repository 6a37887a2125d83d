// Encoding and decoding through nanopb, failing with typed errors (NanopbError).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNanopb

extension NanopbMsg {
    /// Decodes a message. Hostile input is safe: it fails with `.decodeFailed`, naming nanopb's
    /// reason and the position where decoding stopped (for a failure inside a submessage, nanopb
    /// reports the end of the enclosing length-delimited field).
    public init(serializedBytes bytes: some Collection<UInt8>) throws(NanopbError) {
        let box = NanopbBox(emptyOf: Storage.self)
        let target = box.typed(Storage.self)
        let failure: NanopbError?
        if let result = bytes.withContiguousStorageIfAvailable({ NanopbWire.decode($0, into: target) }) {
            failure = result
        } else {
            failure = Array(bytes).withUnsafeBufferPointer { NanopbWire.decode($0, into: target) }
        }
        if let failure { throw failure }
        self.init(box: box)
    }

    /// The message's encoding. Deterministic: fields in number order, elements in stored order.
    public func serializedBytes() throws(NanopbError) -> [UInt8] {
        try NanopbWire.encode(_pointer).get()
    }
}

/// The runtime's only calls into nanopb's encoder and decoder.
enum NanopbWire {
    static func encode<S: NanopbStorage>(_ message: UnsafeMutablePointer<S>) -> Result<[UInt8], NanopbError> {
        var descriptor = S._descriptor
        // Pass 1: a sizing stream (no buffer) counts the bytes.
        var sizing = pb_ostream_t()
        sizing.max_size = Int.max
        // SAFETY: `message` points to a live struct of the descriptor's type (the caller's box or
        // view guarantees it); nanopb only reads it.
        guard wp_pb_encode(&sizing, &descriptor, message) else {
            return .failure(.encodeFailed(reason: reason(sizing.errmsg)))
        }
        let size = sizing.bytes_written
        if size == 0 { return .success([]) }
        // Pass 2: write into a buffer of exactly that size.
        var failure: NanopbError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            // SAFETY: the stream writes at most `size` bytes (its max_size) into `buffer`, which
            // has capacity `size`; nanopb fails rather than write past max_size.
            var stream = wp_pb_ostream_from_buffer(buffer.baseAddress, size)
            if wp_pb_encode(&stream, &descriptor, message), stream.bytes_written == size {
                initialized = size
            } else {
                failure = .encodeFailed(reason: stream.errmsg == nil ? .other("size changed between passes") : reason(stream.errmsg))
                initialized = 0
            }
        }
        if let failure { return .failure(failure) }
        return .success(bytes)
    }

    /// Decodes into a zeroed struct. On failure the struct is left zeroed (all fields absent).
    static func decode<S: NanopbStorage>(_ bytes: UnsafeBufferPointer<UInt8>, into target: UnsafeMutablePointer<S>) -> NanopbError? {
        var descriptor = S._descriptor
        // SAFETY: the stream reads at most `bytes.count` bytes from `bytes`, which the caller keeps
        // alive for this call. `target` is a zeroed struct of the descriptor's type, so the decoder
        // initialises it without leaking anything it overwrites. Recursion is bounded by the
        // nesting limit inside nanopb (patch 0100, PB_MAX_NESTING_DEPTH levels).
        var stream = wp_pb_istream_from_buffer(bytes.baseAddress, bytes.count)
        if wp_pb_decode(&stream, &descriptor, target) { return nil }
        // nanopb already released every allocation on failure; zeroing also clears `which_` tags.
        memset(target, 0, MemoryLayout<S>.size)
        return .decodeFailed(reason: reason(stream.errmsg), offset: bytes.count - stream.bytes_left)
    }

    /// Deep copy by round trip into a zeroed struct of the same type.
    static func copy<S: NanopbStorage>(from source: UnsafeMutablePointer<S>, into target: UnsafeMutablePointer<S>) -> NanopbError? {
        switch encode(source) {
        case .failure(let error): return error
        case .success(let bytes): return bytes.withUnsafeBufferPointer { decode($0, into: target) }
        }
    }

    /// The deepest submessage nesting the decoder accepts (PB_MAX_NESTING_DEPTH, patch 0100).
    static let maxNestingDepth = Int(PB_MAX_NESTING_DEPTH)

    private static func reason(_ message: UnsafePointer<CChar>?) -> NanopbError.Reason {
        // SAFETY: nanopb's error messages are string literals in the runtime (static storage).
        guard let message else { return .other("(no message)") }
        let text = String(cString: message)
        return text == "nesting too deep" ? .nestingTooDeep(limit: maxNestingDepth) : NanopbError.Reason(nanopbMessage: text)
    }
}
