// Scalar slots of pointer fields are written at the field's own size: `storingBits` keeps the
// value's bit pattern in an unsigned integer of that size. A store at a wider size would write past
// the slot (a heap overflow of a calloc'd block that the plain tests would not see), so each size
// is checked against guard bytes around the slot.

@_spi(NanopbFacade) @testable import NanopbRuntime
import Testing

@Suite struct ScalarSlotWidthTests {
    @Test(arguments: [1, 2, 4, 8])
    func eachSizeWritesExactlyItsOwnBytes(_ size: Int) {
        let guardByte: UInt8 = 0xA5
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: guardByte, count: 16)
        let bits: UInt64 = 0x1122_3344_5566_7788
        let slot = NanopbField.storingBits(bits, omitting: nil, size: size, replacing: buffer)
        #expect(slot == buffer, "the existing slot is reused")
        let bytes = Array(UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: UInt8.self), count: 16))
        let littleEndian: [UInt8] = [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]
        #expect(Array(bytes[..<size]) == Array(littleEndian[..<size]), "\(size)-byte slot holds \(bytes[..<size])")
        #expect(bytes[size...].allSatisfy { $0 == guardByte }, "\(size)-byte slot wrote past its end: \(bytes)")
    }
}
