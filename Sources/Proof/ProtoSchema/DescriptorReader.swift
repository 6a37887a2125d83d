/// A minimal protobuf wire reader for decoding descriptor messages. It is deliberately separate
/// from the oracle's decoder: the schema layer must not depend on the codec it is used to test.
///
/// Invariant: `offset` never exceeds `end`, and every read checks bounds before touching `bytes`.
struct DescriptorReader {
    private let bytes: [UInt8]
    /// Absolute position of the next unread byte.
    private(set) var offset: Int
    /// One past the last byte this reader may consume (the end of the enclosing message).
    private let end: Int

    init(_ bytes: [UInt8]) { self.init(bytes, from: 0, to: bytes.count) }

    private init(_ bytes: [UInt8], from: Int, to: Int) {
        self.bytes = bytes; self.offset = from; self.end = to
    }

    var isAtEnd: Bool { offset >= end }

    mutating func varint() throws(SchemaError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while true {
            guard offset < end else { throw .malformed(reason: "truncated varint", offset: start) }
            let byte = bytes[offset]
            offset += 1
            guard shift < 64 else { throw .malformed(reason: "varint longer than 10 bytes", offset: start) }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// Reads a tag; returns the field number and wire type.
    mutating func tag() throws(SchemaError) -> (number: Int, wireType: UInt8) {
        let at = offset
        let raw = try varint()
        let number = raw >> 3
        guard number > 0, number <= 0x1fff_ffff else { throw .malformed(reason: "bad field number", offset: at) }
        return (Int(number), UInt8(raw & 7))
    }

    /// A sub-reader over the next length-delimited payload; advances past it.
    mutating func nested() throws(SchemaError) -> DescriptorReader {
        let at = offset
        let length = try varint()
        guard length <= UInt64(end - offset) else { throw .malformed(reason: "length past end", offset: at) }
        let sub = DescriptorReader(bytes, from: offset, to: offset + Int(length))
        offset += Int(length)
        return sub
    }

    mutating func string() throws(SchemaError) -> String {
        let at = offset
        let sub = try nested()
        guard let text = String(validating: bytes[sub.offset..<sub.end], as: UTF8.self) else {
            throw .malformed(reason: "invalid UTF-8 in string", offset: at)
        }
        return text
    }

    mutating func int32() throws(SchemaError) -> Int32 { Int32(truncatingIfNeeded: try varint()) }

    mutating func bool() throws(SchemaError) -> Bool { try varint() != 0 }

    /// Skips a field of the given wire type (groups included, nested to any depth the input has).
    mutating func skip(wireType: UInt8) throws(SchemaError) {
        let at = offset
        switch wireType {
        case 0: _ = try varint()
        case 1: try advance(8, at: at)
        case 2: _ = try nested()
        case 5: try advance(4, at: at)
        case 3:
            while true {
                let (_, inner) = try tag()
                if inner == 4 { return }
                try skip(wireType: inner)
            }
        default: throw .malformed(reason: "bad wire type \(wireType)", offset: at)
        }
    }

    private mutating func advance(_ count: Int, at: Int) throws(SchemaError) {
        guard end - offset >= count else { throw .malformed(reason: "truncated fixed-width value", offset: at) }
        offset += count
    }

    /// Calls `body` for each field until the end of this reader; `body` must consume the value
    /// (or call `skip`).
    mutating func forEachField(
        _ body: (inout DescriptorReader, _ number: Int, _ wireType: UInt8) throws(SchemaError) -> Void
    ) throws(SchemaError) {
        while !isAtEnd {
            let (number, wireType) = try tag()
            try body(&self, number, wireType)
        }
    }

    /// Reads one whole field: its number, wire type and value bytes (a length-delimited value
    /// without its length prefix; a group with its contents and end tag).
    mutating func field() throws(SchemaError) -> (number: Int, wireType: UInt8, value: ArraySlice<UInt8>) {
        let (number, wireType) = try tag()
        if wireType == 2 {
            let sub = try nested()
            return (number, wireType, bytes[sub.offset..<sub.end])
        }
        let start = offset
        try skip(wireType: wireType)
        return (number, wireType, bytes[start..<offset])
    }

    /// Decodes one scalar or a packed run of them into `into`.
    mutating func repeatedInt32(wireType: UInt8, into values: inout [Int32]) throws(SchemaError) {
        if wireType == 2 {
            var sub = try nested()
            while !sub.isAtEnd { values.append(try sub.int32()) }
        } else {
            values.append(try int32())
        }
    }
}
