// Decoding accepts any collection of bytes: one without contiguous storage is copied into an array
// first, and then decodes, and fails, exactly as that array does.

import Testing
import TestSupport
import NanopbRuntime
import BundledProto

@Suite struct NonContiguousInputTests {
    @Test func bytesWithoutContiguousStorageDecodeAndFailAsTheArrayDoes() throws {
        let codec = Rtm_Codec.with { $0.codec = .opus; $0.mimeType = "audio/opus"; $0.payloadTypes = [111, 112] }
        let bytes = try codec.serializedBytes()
        try expectBalancedAllocations { () throws in
            // A lazy map has no contiguous storage: withContiguousStorageIfAvailable returns nil.
            let lazy = bytes.lazy.map { $0 }
            #expect(lazy.withContiguousStorageIfAvailable { _ in true } == nil)
            #expect(try Rtm_Codec(serializedBytes: lazy) == codec)
            // Codec.mime_type (field 2) claims 5 bytes, 2 follow.
            #expect(throws: NanopbError.decodeFailed(reason: .endOfStream, offset: 2)) {
                try Rtm_Codec(serializedBytes: [UInt8]([0x12, 0x05, 0x61, 0x62]).lazy.map { $0 })
            }
        }
    }
}
