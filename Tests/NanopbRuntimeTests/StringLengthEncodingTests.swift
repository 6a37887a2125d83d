// A string field is encoded with its exact length and every byte, at every length around the
// widths a vectorised strlen reads at once (nanopb patch 0400 measures pointer strings with the C
// library's strlen instead of a byte loop).

import Testing
import NanopbRuntime
import BundledProto

@Suite struct StringLengthEncodingTests {
    /// `DataPacket.sender_identity` (field 2, length-delimited) holding `text`, encoded by hand:
    /// the tag byte, the length as a varint, the UTF-8 bytes.
    static func expectedEncoding(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [0x12]
        var length = text.utf8.count
        while length >= 0x80 {
            bytes.append(UInt8(length & 0x7F) | 0x80)
            length >>= 7
        }
        bytes.append(UInt8(length))
        return bytes + Array(text.utf8)
    }

    /// Lengths 1 to 130 (an empty proto3 string is not encoded at all; every offset of the terminator within a 16-, 32- and 64-byte read, on both
    /// sides of the varint's one-byte limit) and a few around a 4 KiB page and past 64 KiB.
    static let lengths = Array(1...130) + [255, 256, 257, 4095, 4096, 4097, 70_001]

    @Test func everyLengthEncodesItsExactLengthAndEveryByte() throws {
        for length in Self.lengths {
            // Bytes that differ from their neighbours, so a dropped or repeated byte shows.
            let text = String(decoding: (0..<length).map { UInt8(0x21 + $0 % 90) }, as: UTF8.self)
            let packet = Rtm_DataPacket.with { $0.senderIdentity = text }
            let bytes = try packet.serializedBytes(), expected = Self.expectedEncoding(text)
            let identical = bytes == expected  // compared apart, so a failure does not print 70 KB
            #expect(identical, "length \(length): \(bytes.count) bytes encoded, \(expected.count) expected")
            #expect(try Rtm_DataPacket(serializedBytes: bytes).senderIdentity == text, "length \(length)")
        }
    }
}
