// Scalar slots of pointer fields are written at the field's own size: `storingBits` keeps the
// value's bit pattern in an unsigned integer of that size. A store at a wider size would write past
// the slot (a heap overflow of a calloc'd block that the plain tests would not see), so each size
// is checked against guard bytes around the slot.

@_spi(NanopbFacade) @testable import NanopbRuntime
import Testing

@Suite struct ScalarSlotWidthTests {
    @Test(arguments: [1, 2, 4, 8])
    func eachSizeWritesExactlyItsOwnBytes(_ size: Int) {
        let bits: UInt64 = 0x1122_3344_5566_7788
        var reused = false
        let bytes = guardedBytes { buffer in
            reused = NanopbField.storingBits(bits, omitting: nil, size: size, replacing: buffer) == buffer
        }
        #expect(reused, "the existing slot is reused")
        let littleEndian: [UInt8] = [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]
        #expect(Array(bytes[..<size]) == Array(littleEndian[..<size]), "\(size)-byte slot holds \(bytes[..<size])")
        #expect(bytes[size...].allSatisfy { $0 == slotGuardByte }, "\(size)-byte slot wrote past its end: \(bytes)")
    }
}
