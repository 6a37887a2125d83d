// Encoding walks the tree once to size it and once to write it (patches/nanopb/0300-encode-size-cache.patch,
// NanopbSizeCache.swift): every submessage is sized exactly once, the bytes are nanopb's own, and a
// cached size that does not match what the submessage writes fails the encode instead of emitting bytes.

import Testing
import CNanopb
import TestSupport
@_spi(NanopbFacade) @testable import NanopbRuntime
import BundledProto

/// A chat packet whose message quotes one that quotes one that quotes one (nested four deep),
/// each with a one-letter text; the outer chat message also has a `sent_at` timestamp and the
/// packet one byte of padding. Five submessages, in pre-order: chat (22 bytes), sent_at (2),
/// quoted (13), quoted (8), quoted (3). Chat and sent_at are followed by other fields, so a
/// length that claims one byte too many is not caught by running out of room in the parent.
private func packetQuotingFourDeep() -> Rtm_DataPacket {
    .with {
        $0.padding = [0xAA]
        $0.value = .chat(.with {
            $0.sentAt = .with { $0.seconds = 1 }
            $0.text = "a"
            $0.quoted = .with {
                $0.text = "b"
                $0.quoted = .with { $0.text = "c"; $0.quoted = .with { $0.text = "d" } }
            }
        })
    }
}

/// nanopb's own encoding with no cache: pb_get_encoded_size, then pb_encode into that many bytes.
private func uncachedNanopbBytes<S: NanopbStorage>(_ message: UnsafeMutablePointer<S>) -> [UInt8]? {
    var descriptor = S._descriptor
    var size = 0
    guard wp_pb_get_encoded_size(&size, &descriptor, message) else { return nil }
    var bytes = [UInt8](repeating: 0, count: size)
    let written = bytes.withUnsafeMutableBufferPointer { buffer -> Bool in
        var stream = wp_pb_ostream_from_buffer(buffer.baseAddress, size)
        return wp_pb_encode(&stream, &descriptor, message) && stream.bytes_written == size
    }
    return written ? bytes : nil
}

/// Sizes `packet` into a cache of `entries` entries, lets `tamper` change the cache or its entries
/// between the two walks, then writes. Nil when the sizing walk fails.
private func encodeInTwoWalks(
    _ packet: Rtm_DataPacket, entries: Int, walks: inout NanopbEncodeWalks,
    tamper: (inout pb_size_cache_t, UnsafeMutableBufferPointer<Int>) -> Void = { _, _ in }
) -> Result<[UInt8], NanopbError>? {
    var sizes = [Int](repeating: 0, count: entries)
    var cache = pb_size_cache_t()
    return sizes.withUnsafeMutableBufferPointer { buffer in
        guard let size = try? NanopbWire.sizeWalk(packet._pointer, sizes: buffer, cache: &cache, walks: &walks).get() else { return nil }
        tamper(&cache, buffer)
        return NanopbWire.writeWalk(packet._pointer, size: size, cache: &cache, walks: &walks)
    }
}

@Suite struct EncodeSizeCacheTests {
    @Test func aMessageQuotedFourDeepIsSizedOncePerSubmessage() {
        expectBalancedAllocations {
            let packet = packetQuotingFourDeep()
            var walks = NanopbEncodeWalks()
            let bytes = try? NanopbWire.encode(packet._pointer, walks: &walks).get()
            #expect(walks == NanopbEncodeWalks(submessages: 5, submessageSizings: 5, sizingPasses: 1))
            #expect(bytes != nil && bytes == uncachedNanopbBytes(packet._pointer))
            #expect(bytes?.count == 31)
        }
    }

    @Test func theSizingWalkRecordsEachSubmessagesLengthInPreOrder() {
        expectBalancedAllocations {
            let packet = packetQuotingFourDeep()
            var sizes = [Int](repeating: -1, count: 8)
            var cache = pb_size_cache_t()
            var walks = NanopbEncodeWalks()
            let total = sizes.withUnsafeMutableBufferPointer {
                NanopbWire.sizeWalk(packet._pointer, sizes: $0, cache: &cache, walks: &walks)
            }
            // Each quoted level: 3 bytes of text, 2 of key and length, the level inside it.
            #expect((try? total.get()) == 31)
            #expect(cache.recorded == 5)
            #expect(sizes == [22, 2, 13, 8, 3, -1, -1, -1])
        }
    }

    @Test func aTreeLargerThanTheStackArrayIsSizedOnceMoreNotOncePerLevel() {
        expectBalancedAllocations {
            let packet = packetQuotingFourDeep()
            var walks = NanopbEncodeWalks()
            let bytes = try? NanopbWire.encode(packet._pointer, stackEntries: 2, walks: &walks).get()
            #expect(walks == NanopbEncodeWalks(submessages: 5, submessageSizings: 10, sizingPasses: 2))
            #expect(bytes != nil && bytes == uncachedNanopbBytes(packet._pointer))
        }
    }

    @Test func aTreeThatFillsTheStackArrayExactlyIsSizedOnce() {
        expectBalancedAllocations {
            let packet = packetQuotingFourDeep()
            var walks = NanopbEncodeWalks()
            let bytes = try? NanopbWire.encode(packet._pointer, stackEntries: 5, walks: &walks).get()
            #expect(walks == NanopbEncodeWalks(submessages: 5, submessageSizings: 5, sizingPasses: 1), "five sizes in five entries")
            #expect(bytes != nil && bytes == uncachedNanopbBytes(packet._pointer))
        }
    }

    @Test func submessagesPastTheCachesCapacityAreSizedAgainWithTheSameBytes() {
        expectBalancedAllocations {
            let packet = packetQuotingFourDeep()
            var walks = NanopbEncodeWalks()
            let bytes = try? encodeInTwoWalks(packet, entries: 2, walks: &walks)?.get()
            // Numbers 2, 3 and 4 have no entry: the writing walk sizes those three itself.
            #expect(walks.submessageSizings == 5 + 3)
            #expect(bytes != nil && bytes == uncachedNanopbBytes(packet._pointer))
        }
    }

    @Test(arguments: [0, 1, 2, 3, 4], [-1, 1])
    func aCachedSizeOffByOneFailsTheEncodeWithNoBytes(entry: Int, delta: Int) {
        expectBalancedAllocations {
            var walks = NanopbEncodeWalks()
            let written = encodeInTwoWalks(packetQuotingFourDeep(), entries: 5, walks: &walks) { _, sizes in sizes[entry] += delta }
            guard case .failure(.encodeFailed(let reason))? = written else {
                Issue.record("entry \(entry) off by \(delta): \(String(describing: written))")
                return
            }
            #expect([NanopbError.Reason.other("stream full"), .other("submsg size changed")].contains(reason))
        }
    }

    @Test func aWritingWalkThatReadsFewerSizesThanWereRecordedFails() {
        expectBalancedAllocations {
            var walks = NanopbEncodeWalks()
            let written = encodeInTwoWalks(packetQuotingFourDeep(), entries: 5, walks: &walks) { cache, _ in cache.recorded += 1 }
            #expect(written == .failure(.encodeFailed(reason: .other("size changed between passes"))))
        }
    }
}
