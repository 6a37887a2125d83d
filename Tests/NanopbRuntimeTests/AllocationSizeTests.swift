// The bytes each setter asks the counted hooks for: a scalar or enum slot of its C type's size, a
// string's UTF-8 and one NUL, a bytes array's header and data, an array of exactly its elements, a
// submessage slot of its struct, the message's own struct. The block count (OwnershipTests,
// AllocationFailureTests) cannot see a block one element or one byte too large or too small; a block
// too small is an overflow the sanitizers would catch only on the legs that run them, a block too
// large is memory a device-sized tree pays for on every field.

import BundledProto
import BundledProtoC
import CNanopb
@_spi(NanopbFacade) import NanopbRuntime
import TestSupport
import Testing

/// Storage of `Size` bytes with a descriptor of no fields (nothing for pb_release to walk): the
/// struct nanopb makes for an empty message is one byte (`char dummy_field`), and no message of
/// the bundled schema is that small. `_emptyBox` makes a new box on each call (a generic type
/// has no static stored property, which the protocol asks for); nothing here reads it.
private struct TinyStorage<Size>: NanopbStorage {
    var bytes: Size
    static var _descriptor: pb_msgdesc_t {
        pb_msgdesc_t(field_info: nil, submsg_info: nil, default_value: nil, field_callback: nil, field_count: 0, required_field_count: 0, largest_tag: 0)
    }
    static var _emptyBox: NanopbBox { NanopbBox(emptyOf: Self.self) }
    static var _swiftName: String { "Tiny" }
}

@Suite struct AllocationSizeTests {
    @Test func theMessageStructIsOneBlockOfItsCSize() {
        let (_, bytes) = requestingNanopbBytes { _ = Rtm_Codec.with { _ in } }
        #expect(bytes == UInt64(MemoryLayout<rtm_Codec>.size))
    }

    @Test func aOneByteStructIsAOneByteBlockAndAnEmptyOneAsksForOneByteNotZero() {
        #expect(MemoryLayout<TinyStorage<CChar>>.size == 1 && MemoryLayout<TinyStorage<Void>>.size == 0)
        let (_, oneByte) = requestingNanopbBytes { _ = NanopbBox(emptyOf: TinyStorage<CChar>.self) }
        #expect(oneByte == 1)
        let (_, empty) = requestingNanopbBytes { _ = NanopbBox(emptyOf: TinyStorage<Void>.self) }
        #expect(empty == 1, "calloc(1, 0) may return NULL, which the box would take for out of memory")
    }

    @Test func aScalarSlotIsOneValueOfItsTypeAndIsReusedWhenSetAgain() {
        _ = Rtm_Codec.with { codec in
            let first = requestingNanopbBytes { codec.clockRate = 48_000 }
            #expect(first.bytes == UInt64(MemoryLayout<UInt32>.size))
            let again = requestingNanopbBytes { codec.clockRate = 90_000 }
            #expect(again.bytes == 0, "an existing slot is overwritten in place")
            #expect(codec.clockRate == 90_000)
        }
    }

    @Test func anEnumSlotIsOneValueOfTheCEnumAndIsReusedWhenSetAgain() {
        _ = Rtm_Codec.with { codec in
            let first = requestingNanopbBytes { codec.codec = .opus }
            #expect(first.bytes == UInt64(MemoryLayout<rtm_MediaCodec>.size))
            let again = requestingNanopbBytes { codec.codec = .vp8 }
            #expect(again.bytes == 0)
            #expect(codec.codec == .vp8)
        }
    }

    @Test func aStringIsItsUTF8AndOneNul() {
        _ = Rtm_Codec.with { codec in
            let text = "vidéo/VP8"  // é is two UTF-8 bytes: 10 bytes, not 9 characters
            let first = requestingNanopbBytes { codec.mimeType = text }
            #expect(first.bytes == 11)
            let replaced = requestingNanopbBytes { codec.mimeType = "a" }
            #expect(replaced.bytes == 2, "a replacement is a fresh block of the new length")
            #expect(codec.mimeType == "a")
        }
    }

    @Test func aBytesFieldIsTheArrayHeaderAndItsData() {
        _ = Rtm_DataPacket.with { packet in
            let data: [UInt8] = [0, 1, 2, 3, 4]
            let (_, bytes) = requestingNanopbBytes { packet.padding = data }
            let header = MemoryLayout<pb_bytes_array_t>.offset(of: \pb_bytes_array_t.bytes)!
            #expect(bytes == UInt64(header + data.count))
            #expect(packet.padding == data)
        }
    }

    @Test func aRepeatedScalarIsExactlyItsElements() {
        _ = Rtm_Codec.with { codec in
            let (_, bytes) = requestingNanopbBytes { codec.payloadTypes = [96, 97, 98] }
            #expect(bytes == UInt64(3 * MemoryLayout<UInt32>.stride))
            let one = requestingNanopbBytes { codec.payloadTypes = [111] }
            #expect(one.bytes == UInt64(MemoryLayout<UInt32>.stride), "one element is one element's block")
        }
    }

    @Test func aRepeatedStringIsItsPointerArrayAndEachStringWithItsNul() {
        _ = Rtm_DataPacket.with { packet in
            let (_, bytes) = requestingNanopbBytes { packet.destinationIdentities = ["ab", "", "cde"] }
            let pointers = 3 * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride
            #expect(bytes == UInt64(pointers + 3 + 1 + 4))
        }
    }

    @Test func aSubmessageIsOneSlotOfItsStruct() {
        let codec = Rtm_Codec.with { _ in }
        _ = Rtm_SimulcastCodec.with { simulcast in
            let (_, bytes) = requestingNanopbBytes { simulcast.codec = codec }
            // `codec` is shared (the test still holds it), so its empty tree is copied into the slot.
            #expect(bytes == UInt64(MemoryLayout<rtm_Codec>.stride))
        }
    }
}
