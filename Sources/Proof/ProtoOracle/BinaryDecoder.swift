import ProtoSchema

/// Options of the binary decoder. The defaults, stated once in the initialiser, accept exactly what
/// Google's C++ parser (the one behind `protoc --decode`) accepts, except where `BinaryDecoder`
/// documents otherwise.
public struct BinaryDecodingOptions: Sendable, Hashable {
    /// Deepest nesting of messages and groups (known or unknown) below the top-level message.
    /// Google's parsers default to 100: a message 100 levels down parses, 101 does not. Keep it
    /// modest: the decoder recurses once per level.
    public var maxDepth: Int
    /// Drop unknown fields instead of keeping them in `DynamicMessage.unknownFields`.
    public var discardUnknownFields: Bool
    /// Reject a 10-byte varint whose last byte is above 1 (its value would need more than 64
    /// bits). Google's parsers accept such varints and discard the excess bits, so this is off by
    /// default; nanopb-style strict decoders reject them.
    public var rejectOverwideVarints: Bool
    /// Keep invalid UTF-8 in proto3 strings instead of rejecting it, as nanopb does (deviation 9
    /// of docs/deviations.md): for reading what two nanopb parties agreed on.
    public var acceptInvalidUTF8: Bool
    /// Keep a value a closed (proto2) enum does not declare as the field's value, as nanopb does,
    /// instead of moving it to the unknown fields.
    public var openEnums: Bool

    public init(maxDepth: Int = 100, discardUnknownFields: Bool = false, rejectOverwideVarints: Bool = false,
                acceptInvalidUTF8: Bool = false, openEnums: Bool = false) {
        self.maxDepth = maxDepth
        self.discardUnknownFields = discardUnknownFields
        self.rejectOverwideVarints = rejectOverwideVarints
        self.acceptInvalidUTF8 = acceptInvalidUTF8
        self.openEnums = openEnums
    }
}

extension DynamicMessage {
    /// Decodes `bytes` as a message of type `schema`.
    public init(
        serializedBytes bytes: [UInt8], schema: MessageSchema, in schemas: SchemaSet,
        options: BinaryDecodingOptions = .init()
    ) throws(OracleDecodeError) {
        self.init(schema: schema, in: schemas)
        try merge(serializedBytes: bytes, in: schemas, options: options)
    }

    /// Merges `bytes` into this message with protobuf's rules: singular scalars last-one-wins,
    /// singular messages merged recursively, repeated fields appended, a oneof member replacing
    /// its siblings. Decoding `a + b` therefore equals decoding `a` and then merging `b`.
    /// On error the message is left unchanged.
    public mutating func merge(
        serializedBytes bytes: [UInt8], in schemas: SchemaSet, options: BinaryDecodingOptions = .init()
    ) throws(OracleDecodeError) {
        var decoder = BinaryDecoder(bytes: bytes, options: options, layouts: LayoutCache(schemas))
        var copy = self
        try decoder.decodeFields(into: &copy, end: bytes.count, group: nil)
        self = copy
    }
}

/// The oracle's binary decoder.
///
/// Guarantees towards untrusted input:
/// 1. Every read is bounds-checked against `end` of the enclosing message (never past `bytes`),
///    so no input can trap.
/// 2. Every loop consumes at least one byte per iteration, and recursion is bounded by
///    `options.maxDepth`, so every input terminates.
/// 3. Nothing is reserved from a length prefix or an element count; storage grows only with
///    values actually decoded, so memory stays linear in the input size (a few words per byte at
///    worst, for runs of one-byte varints or empty submessages).
///
/// Where it deliberately differs from Google's C++ parser (all on malformed input):
/// - Unknown fields are kept byte for byte (padded varints, padded lengths), where C++'s full
///   runtime re-encodes them canonically.
/// - A closed-enum map value the enum does not declare sends the whole entry to the parent's
///   unknown fields, as generated C++ code does; `protoc`'s reflection-based parser instead keeps
///   the entry with a default value and the number as an unknown field inside the entry.
struct BinaryDecoder {
    /// The whole input.
    let bytes: [UInt8]
    /// Index of the next unread byte; never exceeds the `end` of the message being decoded.
    var offset = 0
    /// Limits towards hostile input and the unknown-field policy.
    let options: BinaryDecodingOptions
    /// Message-type lookups, resolved once per type.
    var layouts: LayoutCache
    /// Nesting level of the message or group being decoded; the top-level message is 0.
    var depth = 0
    /// Declared numbers of each enum checked so far, keyed by full name.
    var closedEnumNumbers: [String: Set<Int32>] = [:]

    init(bytes: [UInt8], options: BinaryDecodingOptions, layouts: LayoutCache) {
        self.bytes = bytes; self.options = options; self.layouts = layouts
    }

    /// Decodes fields into `message` until `end`, or until the end-group tag matching `group`.
    mutating func decodeFields(
        into message: inout DynamicMessage, end: Int, group: (number: Int32, tagOffset: Int)?
    ) throws(OracleDecodeError) {
        while offset < end {
            let tagOffset = offset
            let (number, wire) = try readTag(end: end)
            if wire == .endGroup {
                guard let group else { throw OracleDecodeError(.unexpectedEndGroup, at: tagOffset) }
                guard number == group.number else { throw OracleDecodeError(.mismatchedEndGroup, at: tagOffset) }
                return
            }
            if let field = message.layout.byNumber[number],
               try decodeKnown(field, wire: wire, into: &message, end: end, tagOffset: tagOffset) {
                continue
            }
            let valueStart = offset
            try skip(wire, number: number, end: end, tagOffset: tagOffset)
            if !options.discardUnknownFields {
                message.unknownFields.append(
                    UnknownField(number: number, wireType: wire, payload: Array(bytes[valueStart..<offset])))
            }
        }
        if let group { throw OracleDecodeError(.unterminatedGroup, at: group.tagOffset) }
    }

    // MARK: Known fields

    /// Decodes one known field's value; returns false, consuming nothing, when the wire type is
    /// one the field's type cannot take (Google's parsers then keep the field as unknown).
    private mutating func decodeKnown(
        _ field: FieldSchema, wire: WireType, into message: inout DynamicMessage, end: Int, tagOffset: Int
    ) throws(OracleDecodeError) -> Bool {
        if let entry = message.layout.mapEntries[field.number] {
            guard wire == .lengthDelimited else { return false }
            try decodeMapEntry(field, entry, into: &message, end: end, tagOffset: tagOffset)
            return true
        }
        if field.isRepeated, field.type.isPackable, wire == .lengthDelimited {
            try decodePacked(field, into: &message, end: end)
            return true
        }
        guard wire == field.type.wireType else { return false }
        switch field.type {
        case .message, .group:
            guard let typeName = field.typeName, let empty = layouts.empty(typeName) else { return false }
            // Merge into the present value of a singular field (or the same oneof member).
            var sub = field.isRepeated ? empty : (message[number: field.number]?.messageValue ?? empty)
            if !field.isRepeated { message.store(field.number, nil) }  // keep `sub` uniquely referenced
            try enterNested(tagOffset)
            if field.type == .group {
                try decodeFields(into: &sub, end: end, group: (field.number, tagOffset))
            } else {
                let length = try readLength(end: end)
                try decodeFields(into: &sub, end: offset + length, group: nil)
            }
            depth -= 1
            store(.message(sub), field, into: &message)
        default:
            let valueStart = offset
            let value = try readScalar(field.type, end: end, validateUTF8: message.schema.syntax == .proto3 && !options.acceptInvalidUTF8)
            if !options.openEnums && isUndeclaredClosedEnum(value, field, in: message.schema.syntax) {
                keepUnknown(field.number, .varint, valueStart..<offset, in: &message)
            } else {
                store(value, field, into: &message)
            }
        }
        return true
    }

    private mutating func decodePacked(_ field: FieldSchema, into message: inout DynamicMessage, end: Int) throws(OracleDecodeError) {
        let length = try readLength(end: end)
        let packedEnd = offset + length
        var values = message.repeated(number: field.number)
        message.store(field.number, nil)  // keep `values` uniquely referenced while appending
        defer { message.store(field.number, values.isEmpty ? nil : .repeated(values)) }
        while offset < packedEnd {
            let valueStart = offset
            let value = try readScalar(field.type, end: packedEnd, validateUTF8: false)
            if !options.openEnums && isUndeclaredClosedEnum(value, field, in: message.schema.syntax) {
                keepUnknown(field.number, .varint, valueStart..<offset, in: &message)
            } else {
                values.append(value)
            }
        }
    }

    private mutating func decodeMapEntry(
        _ field: FieldSchema, _ entry: MapEntryFields, into message: inout DynamicMessage, end: Int, tagOffset: Int
    ) throws(OracleDecodeError) {
        let payloadStart = offset
        let length = try readLength(end: end)
        guard let entryLayout = layouts.layout(entry.entry.fullName) else { return }
        var decoded = DynamicMessage(layout: entryLayout)
        try enterNested(tagOffset)
        try decodeFields(into: &decoded, end: offset + length, group: nil)
        depth -= 1
        // A closed-enum value the enum does not declare makes the whole entry unknown.
        if entry.value.type == .enum, entry.valueEnum?.isClosed == true || entry.entry.syntax == .proto2,
           decoded.unknownFields.contains(where: { $0.number == 2 }) {
            keepUnknown(field.number, .lengthDelimited, payloadStart..<offset, in: &message)
            return
        }
        let key = decoded[number: 1].flatMap(MapKey.init) ?? ProtoValue.zero(of: entry.key.type).flatMap(MapKey.init)
        let value: ProtoValue?
        if let present = decoded[number: 2] {
            value = present
        } else if let typeName = entry.value.typeName, entry.value.type == .message {
            value = layouts.empty(typeName).map(ProtoValue.message)
        } else {
            value = ProtoValue.zero(of: entry.value.type)
        }
        guard let key, let value else { return }
        var map = message.map(number: field.number)
        message.store(field.number, nil)  // keep `map` uniquely referenced
        map[key] = value
        message.store(field.number, .map(map))
    }

    /// Stores a decoded value: appended to a repeated field, otherwise set (clearing oneof siblings).
    private func store(_ value: ProtoValue, _ field: FieldSchema, into message: inout DynamicMessage) {
        if field.isRepeated {
            var values = message.repeated(number: field.number)
            message.store(field.number, nil)  // keep `values` uniquely referenced
            values.append(value)
            message.store(field.number, .repeated(values))
        } else {
            message.set(number: field.number, value)
        }
    }

    private func keepUnknown(_ number: Int32, _ wire: WireType, _ range: Range<Int>, in message: inout DynamicMessage) {
        guard !options.discardUnknownFields else { return }
        message.unknownFields.append(UnknownField(number: number, wireType: wire, payload: Array(bytes[range])))
    }

    /// True for a number a closed enum field does not declare: such values become unknown fields.
    ///
    /// Closedness follows the *field's* file, as protoc 3.21 decides it: every enum field of a
    /// proto2 message is closed, even when the enum comes from a proto3 file. (Proto3 files
    /// cannot use proto2 enums, so proto3 fields are always open.)
    private mutating func isUndeclaredClosedEnum(_ value: ProtoValue, _ field: FieldSchema, in syntax: Syntax) -> Bool {
        guard case let .enumValue(number) = value, let typeName = field.typeName,
              let schema = layouts.schemas.enumType(typeName), schema.isClosed || syntax == .proto2 else { return false }
        let known = closedEnumNumbers[typeName] ?? Set(schema.values.map(\.number))
        closedEnumNumbers[typeName] = known
        return !known.contains(number)
    }

    private mutating func enterNested(_ tagOffset: Int) throws(OracleDecodeError) {
        guard depth < options.maxDepth else { throw OracleDecodeError(.nestingTooDeep, at: tagOffset) }
        depth += 1
    }

    // MARK: Unknown fields

    /// Consumes one value of wire type `wire` without interpreting it.
    private mutating func skip(_ wire: WireType, number: Int32, end: Int, tagOffset: Int) throws(OracleDecodeError) {
        switch wire {
        case .varint: _ = try readVarint(end: end)
        case .fixed64: _ = try readFixed(8, end: end)
        case .fixed32: _ = try readFixed(4, end: end)
        case .lengthDelimited: offset += try readLength(end: end)
        case .startGroup:
            try enterNested(tagOffset)
            while true {
                guard offset < end else { throw OracleDecodeError(.unterminatedGroup, at: tagOffset) }
                let innerOffset = offset
                let (innerNumber, innerWire) = try readTag(end: end)
                if innerWire == .endGroup {
                    guard innerNumber == number else { throw OracleDecodeError(.mismatchedEndGroup, at: innerOffset) }
                    break
                }
                try skip(innerWire, number: innerNumber, end: end, tagOffset: innerOffset)
            }
            depth -= 1
        case .endGroup:
            throw OracleDecodeError(.unexpectedEndGroup, at: tagOffset)
        }
    }

    // MARK: Primitive reads (each checks bounds against `end` first)

    /// Reads a tag as Google's C++ parser does: at most 5 bytes, the value truncated to 32 bits
    /// (so `88 80 80 80 10` reads as tag 8, field 1), field number not 0, wire type 0...5.
    private mutating func readTag(end: Int) throws(OracleDecodeError) -> (Int32, WireType) {
        let start = offset
        var raw: UInt64 = 0
        var index = 0
        while true {
            guard index < 5 else { throw OracleDecodeError(.overlongVarint, at: start) }
            guard offset < end else { throw OracleDecodeError(.truncatedVarint, at: start) }
            let byte = bytes[offset]
            offset += 1
            raw |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            index += 1
            if byte < 0x80 { break }
        }
        let number = (raw & 0xFFFF_FFFF) >> 3
        guard number != 0 else { throw OracleDecodeError(.fieldNumberZero, at: start) }
        guard number <= UInt64(Wire.maxFieldNumber) else { throw OracleDecodeError(.fieldNumberTooLarge, at: start) }
        guard let wire = WireType(rawValue: UInt8(raw & 7)) else { throw OracleDecodeError(.invalidWireType, at: start) }
        return (Int32(number), wire)
    }

    /// Reads a varint of at most 10 bytes; bits beyond 64 in the 10th byte are discarded (as
    /// Google's parsers do) unless `rejectOverwideVarints`.
    private mutating func readVarint(end: Int) throws(OracleDecodeError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        for index in 0..<10 {
            guard offset < end else { throw OracleDecodeError(.truncatedVarint, at: start) }
            let byte = bytes[offset]
            offset += 1
            if index == 9 {
                guard byte < 0x80 else { throw OracleDecodeError(.overlongVarint, at: start) }
                if byte > 1, options.rejectOverwideVarints { throw OracleDecodeError(.overwideVarint, at: start) }
            }
            value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte < 0x80 { return value }
        }
        throw OracleDecodeError(.overlongVarint, at: start)  // unreachable: index 9 returns or throws
    }

    /// Reads a length prefix and checks the payload fits before `end`. Like Google's parsers (a
    /// size is a 32-bit value below 2 GiB), a prefix takes at most 5 bytes: a 6- to 10-byte
    /// prefix is `overlongLength`, even when its value is small.
    private mutating func readLength(end: Int) throws(OracleDecodeError) -> Int {
        let start = offset
        let length = try readVarint(end: end)
        guard offset - start <= 5 else { throw OracleDecodeError(.overlongLength, at: start) }
        guard length <= UInt64(end - offset) else { throw OracleDecodeError(.lengthPastEnd, at: start) }
        return Int(length)
    }

    /// Reads `count` (4 or 8) little-endian bytes.
    private mutating func readFixed(_ count: Int, end: Int) throws(OracleDecodeError) -> UInt64 {
        guard end - offset >= count else { throw OracleDecodeError(.truncatedFixed, at: offset) }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += count
        return value
    }

    /// Reads one scalar of `type` (not message or group). Integer types narrower than 64 bits
    /// take the low bits of the varint, as Google's parsers do; bool is true for any non-zero.
    private mutating func readScalar(_ type: FieldType, end: Int, validateUTF8: Bool) throws(OracleDecodeError) -> ProtoValue {
        switch type {
        case .int32: return .int32(Int32(truncatingIfNeeded: try readVarint(end: end)))
        case .int64: return .int64(Int64(bitPattern: try readVarint(end: end)))
        case .uint32: return .uint32(UInt32(truncatingIfNeeded: try readVarint(end: end)))
        case .uint64: return .uint64(try readVarint(end: end))
        case .sint32: return .int32(Wire.unzigzag32(UInt32(truncatingIfNeeded: try readVarint(end: end))))
        case .sint64: return .int64(Wire.unzigzag64(try readVarint(end: end)))
        case .bool: return .bool(try readVarint(end: end) != 0)
        case .enum: return .enumValue(Int32(truncatingIfNeeded: try readVarint(end: end)))
        case .fixed32: return .uint32(UInt32(truncatingIfNeeded: try readFixed(4, end: end)))
        case .sfixed32: return .int32(Int32(truncatingIfNeeded: try readFixed(4, end: end)))
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: try readFixed(4, end: end))))
        case .fixed64: return .uint64(try readFixed(8, end: end))
        case .sfixed64: return .int64(Int64(bitPattern: try readFixed(8, end: end)))
        case .double: return .double(Double(bitPattern: try readFixed(8, end: end)))
        case .string, .bytes:
            let length = try readLength(end: end)
            let range = offset..<(offset + length)
            offset += length
            if type == .bytes { return .bytes(Array(bytes[range])) }
            if validateUTF8, let bad = Wire.firstInvalidUTF8(bytes, range) {
                throw OracleDecodeError(.invalidUTF8, at: bad)
            }
            return .string(Array(bytes[range]))
        case .message, .group:
            preconditionFailure("readScalar called for \(type)")
        }
    }
}
