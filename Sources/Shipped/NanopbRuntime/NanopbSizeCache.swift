// Encoding in two walks over the message tree: one sizing walk that records every submessage's
// size, one writing walk that reads them (nanopb's size cache, patches/nanopb/0300-encode-size-cache.patch).

import CNanopb

/// What the size cache of one encode saw; tests pin the one-pass property with it.
struct NanopbEncodeWalks: Equatable {
    /// Submessages the (last) sizing walk reached.
    var submessages = 0
    /// Submessage sizing walks nanopb started under the cache, over all walks of this encode.
    /// Equal to `submessages` when no submessage was sized twice.
    var submessageSizings = 0
    /// Walks of the whole tree that only sized it (1, or 2 when the tree outgrew the stack array).
    var sizingPasses = 0
}

extension NanopbWire {
    /// Submessage sizes kept in a temporary (stack) array: 16 KiB, enough for the metrics packet of
    /// docs/measurements.md (1,553 submessages). A larger tree is sized again into a heap array of
    /// exactly its count: one more sizing walk, never one per nesting level.
    static let stackSizeEntries = 2048

    /// Encodes `message` with one sizing walk and one writing walk (two sizing walks when the tree
    /// has more than `stackEntries` submessages). `walks` receives what the cache saw.
    static func encode<S: NanopbStorage>(
        _ message: UnsafeMutablePointer<S>, stackEntries: Int = stackSizeEntries, walks: inout NanopbEncodeWalks
    ) -> Result<[UInt8], NanopbError> {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: stackEntries) { stackSizes in
            var cache = pb_size_cache_t()
            let sized = sizeWalk(message, sizes: stackSizes, cache: &cache, walks: &walks)
            guard case .success(let size) = sized else { return sized.map { _ in [] } }
            if cache.recorded <= stackSizes.count {
                return writeWalk(message, size: size, cache: &cache, walks: &walks)
            }
            // More submessages than the stack array holds: size again into an exact heap array.
            let heapSizes = UnsafeMutableBufferPointer<Int>.allocate(capacity: cache.recorded)
            defer { heapSizes.deallocate() }
            let resized = sizeWalk(message, sizes: heapSizes, cache: &cache, walks: &walks)
            guard case .success(let size) = resized else { return resized.map { _ in [] } }
            return writeWalk(message, size: size, cache: &cache, walks: &walks)
        }
    }

    /// The sizing walk: the encoded size of `message`, with every submessage's size recorded in
    /// `sizes` (pre-order) through a cache that is reset here and points at `sizes` afterwards.
    static func sizeWalk<S: NanopbStorage>(
        _ message: UnsafeMutablePointer<S>, sizes: UnsafeMutableBufferPointer<Int>,
        cache: inout pb_size_cache_t, walks: inout NanopbEncodeWalks
    ) -> Result<Int, NanopbError> {
        var descriptor = S._descriptor
        cache = pb_size_cache_t(sizes: sizes.baseAddress, capacity: sizes.count, recorded: 0, consumed: 0, sizing_walks: 0)
        // SAFETY: `message` points to a live struct of the descriptor's type (the caller's box or
        // view guarantees it); nanopb only reads it. The cache and `sizes` outlive the call;
        // nanopb stores only below `capacity`, which is `sizes.count`.
        let sized = withUnsafeMutablePointer(to: &cache) { cachePointer -> Result<Int, NanopbError> in
            var sizing = pb_ostream_t()
            sizing.max_size = Int.max
            sizing.size_cache = cachePointer
            guard wp_pb_encode(&sizing, &descriptor, message) else {
                return .failure(.encodeFailed(reason: reason(sizing.errmsg)))
            }
            return .success(sizing.bytes_written)
        }
        walks.submessages = cache.recorded
        walks.submessageSizings += cache.sizing_walks
        walks.sizingPasses += 1
        return sized
    }

    /// The writing walk: `size` bytes of `message`, submessage lengths taken from `cache` as the
    /// sizing walk left it. Fails, with no bytes, when nanopb rejects a cached size (it must equal
    /// the bytes the submessage writes), when the total differs from `size`, or when the walk did
    /// not read exactly the sizes the sizing walk recorded.
    static func writeWalk<S: NanopbStorage>(
        _ message: UnsafeMutablePointer<S>, size: Int, cache: inout pb_size_cache_t, walks: inout NanopbEncodeWalks
    ) -> Result<[UInt8], NanopbError> {
        if size == 0 { return .success([]) }
        var descriptor = S._descriptor
        let sizingsBefore = cache.sizing_walks
        var failure: NanopbError?
        let bytes = withUnsafeMutablePointer(to: &cache) { cachePointer in
            [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                // SAFETY: the stream writes at most `size` bytes (its max_size) into `buffer`, which
                // has capacity `size`; nanopb fails rather than write past max_size. The cache
                // (and the array it points to) outlives the call.
                var stream = wp_pb_ostream_from_buffer(buffer.baseAddress, size)
                stream.size_cache = cachePointer
                if wp_pb_encode(&stream, &descriptor, message), stream.bytes_written == size,
                   cachePointer.pointee.consumed == cachePointer.pointee.recorded {
                    initialized = size
                } else {
                    failure = .encodeFailed(reason: stream.errmsg == nil ? .other("size changed between passes") : reason(stream.errmsg))
                    initialized = 0
                }
            }
        }
        walks.submessageSizings += cache.sizing_walks - sizingsBefore
        if let failure { return .failure(failure) }
        return .success(bytes)
    }
}
