import Testing
@testable import WireTransport

/// The receive buffer hands out exactly the bytes appended, in order, however the takes are cut,
/// including across the compaction that drops a consumed prefix of 64 KiB or more.
@Suite struct ByteBufferTests {
    private func append(_ bytes: [UInt8], to buffer: inout ByteBuffer) {
        bytes.withUnsafeBytes { buffer.append($0) }
    }

    @Test func takesCutAcrossCompactionReturnTheAppendedBytesInOrder() {
        let bytes = pattern(200_000, seed: 3)
        var buffer = ByteBuffer()
        append(bytes, to: &buffer)
        var offset = 0
        // 30,000-byte takes: the consumed prefix passes 64 KiB and half the storage at 120,000,
        // where the buffer compacts; the takes after it must go on where they left off.
        while offset < bytes.count {
            let n = min(30_000, bytes.count - offset)
            let same = buffer.take(n) == Array(bytes[offset ..< offset + n])  // a Bool: a failure prints no 30,000 bytes
            #expect(same, "the take at \(offset) returned other bytes")
            offset += n
            #expect(buffer.count == bytes.count - offset, "left after the take at \(offset - n)")
        }
        #expect(buffer.count == 0, "\(buffer.count) bytes left")
    }

    @Test func appendingAfterAPartialTakeKeepsTheOrderAndAFullTakeEmptiesTheBuffer() {
        var buffer = ByteBuffer()
        append([1, 2, 3, 4], to: &buffer)
        #expect(buffer.take(0) == [] && buffer.count == 4)
        #expect(buffer.take(3) == [1, 2, 3])
        append([5, 6], to: &buffer)
        #expect(buffer.count == 3 && !buffer.isEmpty)
        #expect(buffer.take(3) == [4, 5, 6])
        #expect(buffer.isEmpty && buffer.count == 0)
        append([7], to: &buffer)
        #expect(buffer.take(1) == [7] && buffer.isEmpty)
    }
}
