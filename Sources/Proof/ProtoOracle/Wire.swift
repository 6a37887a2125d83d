import ProtoSchema

/// Primitive encodings of the protobuf wire format (protobuf.dev, "Encoding"): base-128 varints,
/// zigzag, little-endian fixed-width values and tags. Pure functions with no state.
enum Wire {
    /// Largest legal field number, 2^29 - 1.
    static let maxFieldNumber: Int64 = (1 << 29) - 1

    /// Bytes a varint encoding of `value` takes (1...10).
    static func varintSize(_ value: UInt64) -> Int {
        var size = 1
        var rest = value >> 7
        while rest != 0 { size += 1; rest >>= 7 }
        return size
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    static func appendFixed32(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    static func appendFixed64(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    static func tag(_ number: Int32, _ wireType: WireType) -> UInt64 {
        UInt64(UInt32(bitPattern: number)) << 3 | UInt64(wireType.rawValue)
    }

    static func tagSize(_ number: Int32) -> Int { varintSize(UInt64(UInt32(bitPattern: number)) << 3) }

    static func appendTag(_ number: Int32, _ wireType: WireType, to out: inout [UInt8]) {
        appendVarint(tag(number, wireType), to: &out)
    }

    static func zigzag32(_ v: Int32) -> UInt32 { UInt32(bitPattern: (v << 1) ^ (v >> 31)) }
    static func zigzag64(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    static func unzigzag32(_ v: UInt32) -> Int32 { Int32(bitPattern: v >> 1) ^ -Int32(bitPattern: v & 1) }
    static func unzigzag64(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }

    /// Index of the first byte of the first ill-formed UTF-8 sequence in `bytes[range]`, or nil when
    /// the range is valid UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
    static func firstInvalidUTF8(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the second byte
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard end - i >= length else { return i }
            guard bytes[i + 1] >= low, bytes[i + 1] <= high else { return i }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }
}
