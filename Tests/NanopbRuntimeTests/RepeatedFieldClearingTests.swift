// Emptying a repeated field: the struct must hold a NULL array AND a zero count. nanopb's
// pb_release walks `count` entries of a repeated string or bytes array without checking the
// pointer, so a NULL array with a count left over would be read when the message is freed.

import Testing
import TestSupport
@_spi(NanopbFacade) import NanopbRuntime
import BundledProto
import CNanopb

@Suite struct RepeatedFieldClearingTests {
    @Test func storingAnEmptyArrayOverAFilledOneLeavesNoArrayAndACountOfZero() {
        let scalars = NanopbField.storing(array: [UInt32(7), 8], replacing: nil, count: 0)
        let clearedScalars = NanopbField.storing(array: [UInt32](), replacing: scalars.0, count: scalars.1)
        #expect(clearedScalars.0 == nil && clearedScalars.1 == 0)

        let strings = NanopbField.storing(strings: ["bob", "carol"], replacing: nil, count: 0)
        let clearedStrings = NanopbField.storing(strings: [], replacing: strings.0, count: strings.1)
        #expect(clearedStrings.0 == nil && clearedStrings.1 == 0)

        let bytes = NanopbField.storing(byteArrays: [[1, 2], [3]], replacing: nil, count: 0)
        let clearedBytes = NanopbField.storing(byteArrays: [], replacing: bytes.0, count: bytes.1)
        #expect(clearedBytes.0 == nil && clearedBytes.1 == 0)
    }

    @Test func aRepeatedStringFieldSetAndThenEmptiedEncodesNothingAndIsReleasedCleanly() {
        expectBalancedAllocations {
            let packet = Rtm_DataPacket.with {
                $0.destinationIdentities = ["bob", "carol"]
                $0.destinationIdentities = []
            }
            #expect(packet._pointer.pointee.destination_identities == nil)
            #expect(packet._pointer.pointee.destination_identities_count == 0)
            #expect(packet.destinationIdentities.isEmpty)
            #expect((try? packet.serializedBytes()) == [])
        }
    }
}
