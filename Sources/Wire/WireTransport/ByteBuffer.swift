/// Received stream bytes not yet delivered: an array with a read index, compacted when the
/// consumed prefix is large, so taking a prefix is O(taken) and appending amortised O(added).
struct ByteBuffer {
    private var storage: [UInt8] = []
    private var readIndex = 0

    var count: Int { storage.count - readIndex }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
    }

    /// Removes and returns the first `n` bytes; `n <= count`.
    mutating func take(_ n: Int) -> [UInt8] {
        precondition(n <= count, "ByteBuffer.take beyond the buffered bytes")
        let out = Array(storage[readIndex ..< readIndex + n])
        readIndex += n
        if readIndex == storage.count {
            storage.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex >= 65536 && readIndex * 2 >= storage.count {
            storage.removeFirst(readIndex)
            readIndex = 0
        }
        return out
    }
}
