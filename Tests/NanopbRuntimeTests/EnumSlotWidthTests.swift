// Enum slots are read and written at the C enum's own width. Protobuf enums are int-sized in C on
// every ABI this runs on, but a packed enum would be one or two bytes; a store at the wrong width
// would write past the slot. Each width is checked against the bytes around the slot.

@_spi(NanopbFacade) @testable import NanopbRuntime
import Testing

@Suite struct EnumSlotWidthTests {
    /// Stores `value` in a slot of type `C` inside a guard-filled buffer and reads it back.
    static func roundTrip<C>(_: C.Type, _ value: Int32) -> (loaded: Int32, bytes: [UInt8]) {
        var loaded: Int32 = 0
        let bytes = guardedBytes { buffer in
            let slot = buffer.bindMemory(to: C.self, capacity: 1)
            NanopbField.storeEnum(value, slot)
            loaded = NanopbField.loadEnum(slot)
        }
        return (loaded, bytes)
    }

    @Test(arguments: [Int32(-2), 1, 100])
    func eachWidthWritesExactlyItsOwnBytesAndReadsTheValueBack(_ value: Int32) {
        func expectWidth<C>(_ type: C.Type, _ littleEndian: [UInt8]) {
            let (loaded, bytes) = Self.roundTrip(type, value)
            let width = MemoryLayout<C>.size
            #expect(loaded == value, "\(width)-byte slot")
            #expect(Array(bytes[..<width]) == littleEndian, "\(width)-byte slot holds \(bytes[..<width])")
            #expect(bytes[width...].allSatisfy { $0 == slotGuardByte }, "\(width)-byte slot wrote past its end: \(bytes)")
        }
        expectWidth(Int8.self, withUnsafeBytes(of: Int8(truncatingIfNeeded: value).littleEndian, Array.init))
        expectWidth(Int16.self, withUnsafeBytes(of: Int16(truncatingIfNeeded: value).littleEndian, Array.init))
        expectWidth(Int32.self, withUnsafeBytes(of: value.littleEndian, Array.init))
        expectWidth(Int64.self, withUnsafeBytes(of: Int64(value).littleEndian, Array.init))
    }
}
