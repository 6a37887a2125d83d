// Encoding and decoding through nanopb, with typed errors that carry nanopb's own message.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNanopb

/// Why nanopb refused to encode or decode. The reason is nanopb's error message (`PB_GET_ERROR`).
public enum NanopbError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not a valid encoding of the message; decoding stopped at byte `offset`.
    case decodeFailed(reason: String, offset: Int)
    /// The message cannot be encoded (a proto2 required field is missing, or allocation failed).
    case encodeFailed(reason: String)

    public var description: String {
        switch self {
        case .decodeFailed(let reason, let offset): return "decode failed at byte \(offset): \(reason)"
        case .encodeFailed(let reason): return "encode failed: \(reason)"
        }
    }
}

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
                failure = .encodeFailed(reason: stream.errmsg == nil ? "size changed between passes" : reason(stream.errmsg))
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
        // initialises it without leaking anything it overwrites.
        if let offset = NestingGuard.firstTooDeep(bytes, 0, bytes.count, &descriptor, depth: 0) {
            return .decodeFailed(reason: "nesting deeper than \(NestingGuard.maxDepth) levels", offset: offset)
        }
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

    private static func reason(_ message: UnsafePointer<CChar>?) -> String {
        // SAFETY: nanopb's error messages are string literals in the runtime (static storage).
        message.map { String(cString: $0) } ?? "(no message)"
    }
}

/// nanopb's decoder recurses once per submessage level with no limit, so a recursive schema fed
/// deeply nested input (two bytes per level) would exhaust the stack. This pre-pass walks the
/// length-delimited fields that the descriptors say are submessages and rejects input nested
/// deeper than `maxDepth` before nanopb sees it. It stops quietly at anything malformed: reporting
/// that is nanopb's job.
enum NestingGuard {
    /// protoc-gen-swift's default recursion limit.
    static let maxDepth = 100

    /// Scratch memory the field iterator may read (it loads each pointer field of the struct it is
    /// given) while looking up a field's type: zeroed, never written, large enough for any struct
    /// of up to `scratchSize / 16 - 1` FT_POINTER fields.
    private static let scratchSize = 1 << 16
    // SAFETY: allocated once, zeroed, never written or freed; concurrent reads of constant memory.
    nonisolated(unsafe) private static let scratch: UnsafeMutableRawPointer = calloc(1, scratchSize)!

    /// The offset of the first submessage deeper than `maxDepth` in `bytes[start..<end]`, if any.
    static func firstTooDeep(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
        _ descriptor: UnsafePointer<pb_msgdesc_t>, depth: Int
    ) -> Int? {
        if depth > maxDepth { return start }
        var index = start
        while index < end {
            // Tags are 32-bit values, truncated as nanopb (patch 0001) and Google read them.
            guard let key = varint(bytes, &index, end).map({ $0 & 0xFFFF_FFFF }) else { return nil }
            switch key & 7 {
            case 0: guard varint(bytes, &index, end) != nil else { return nil }
            case 1: index += 8
            case 5: index += 4
            case 2:
                guard let length = varint(bytes, &index, end), length <= UInt64(end - index) else { return nil }
                let next = index + Int(length)
                if let child = submessage(of: descriptor, tag: key >> 3),
                   let offset = firstTooDeep(bytes, index, next, child, depth: depth + 1) {
                    return offset
                }
                index = next
            case 3:
                // An unknown group: nanopb (patch 0001) skips it and decodes what follows, so the
                // scan must go on past it too. Nothing inside is decoded as a submessage.
                guard skipGroup(bytes, &index, end) else { return nil }
            default: return nil
            }
        }
        return nil
    }

    /// Moves `index` past the group whose start tag was just read; false at anything malformed
    /// (nanopb then fails at the same place, so the rest of the input is never decoded).
    private static func skipGroup(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) -> Bool {
        var open = 1
        while open > 0 && open <= maxDepth {
            guard let key = varint(bytes, &index, end) else { return false }
            switch key & 7 {
            case 0: guard varint(bytes, &index, end) != nil else { return false }
            case 1: index += 8
            case 5: index += 4
            case 2:
                guard let length = varint(bytes, &index, end), length <= UInt64(end - index) else { return false }
                index += Int(length)
            case 3: open += 1
            case 4: open -= 1
            default: return false
            }
            guard index <= end else { return false }
        }
        return open == 0
    }

    /// The descriptor of field `tag` when it is a submessage (or map entry) field.
    private static func submessage(of descriptor: UnsafePointer<pb_msgdesc_t>, tag: UInt64) -> UnsafePointer<pb_msgdesc_t>? {
        guard tag <= UInt64(UInt32.max), 16 * (Int(descriptor.pointee.field_count) + 1) <= scratchSize else { return nil }
        var iterator = pb_field_iter_t()
        // SAFETY: the iterator reads field slots of `scratch` at offsets below the struct's size,
        // which is at most 16 bytes per FT_POINTER field plus one word (checked above).
        guard wp_pb_field_iter_begin(&iterator, descriptor, scratch), wp_pb_field_iter_find(&iterator, UInt32(tag))
        else { return nil }
        let kind = UInt32(iterator.type) & PB_LTYPE_MASK
        guard kind == PB_LTYPE_SUBMESSAGE || kind == PB_LTYPE_SUBMSG_W_CB else { return nil }
        return iterator.submsg_desc
    }

    private static func varint(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            guard index < end else { return nil }
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte < 0x80 { return value }
        }
        return nil
    }
}
