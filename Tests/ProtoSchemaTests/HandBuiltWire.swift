// Hand-built protobuf encodings for the descriptor tests: descriptors protoc would never write
// (unparsable nested values, unusual wire types, out-of-range indices), spelled field by field.

/// Encoders for one field at a time; `len(1, file)` is a `FileDescriptorSet` holding `file`.
enum HandBuiltWire {
    static func varint(_ value: UInt64) -> [UInt8] {
        var v = value, out: [UInt8] = []
        while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        return out + [UInt8(v)]
    }
    static func tag(_ number: Int, _ wireType: UInt8) -> [UInt8] { varint(UInt64(number) << 3 | UInt64(wireType)) }
    /// A length-delimited field.
    static func len(_ number: Int, _ bytes: [UInt8]) -> [UInt8] { tag(number, 2) + varint(UInt64(bytes.count)) + bytes }
    static func text(_ number: Int, _ text: String) -> [UInt8] { len(number, Array(text.utf8)) }
    static func int(_ number: Int, _ value: Int64) -> [UInt8] { tag(number, 0) + varint(UInt64(bitPattern: value)) }
}
