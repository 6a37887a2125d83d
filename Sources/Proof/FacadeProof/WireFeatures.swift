// What an input's bytes contain that a row of docs/deviations.md is about, found by walking the
// wire format with the schema. The differential checks explain a disagreement between the facades,
// the oracle and Google's parser only through these predicates (never through an error message),
// so a disagreement no row describes is a failure.

import ProtoSchema

/// Constructs of one input that rows of docs/deviations.md are about.
public struct WireFeatures: Sendable, Equatable, CustomStringConvertible {
    /// Row 3/4: a singular message field (or a message member of a oneof) occurs more than once in
    /// one message, where the specification merges and nanopb replaces.
    public var duplicateSingularMessage = false
    /// Row 8: a known string field holds a NUL byte.
    public var nulInString = false
    /// Rows 7, 13, 18: a known uint32, sint32, bool or unsigned-enum field (nanopb decodes those as
    /// 32-bit unsigned) holds a varint whose 64-bit value does not fit in 32 bits.
    public var narrowVarintOverflow = false
    /// Row 17: a known varint field holds a 10-byte varint with bits above 64.
    public var overwideVarint = false
    /// Row 12: a known closed-enum (proto2) field holds a number its enum does not declare.
    public var unknownClosedEnumValue = false
    /// Row 14: a known field arrives with a wire type its type cannot have.
    public var wrongWireType = false
    /// Row 16: a length prefix is longer than 5 bytes.
    public var overlongLength = false
    /// SwiftProtobuf row S2: a known string field (any syntax) holds bytes that are not UTF-8.
    public var invalidUTF8InString = false
    /// SwiftProtobuf row S3: a tag's varint (at most 5 bytes) has a value of 2^32 or more; Google's
    /// parsers, the oracle and the facades keep its low 32 bits.
    public var tagAbove32Bits = false
    /// SwiftProtobuf row S4: a map entry's key or value arrives with a wire type its type cannot
    /// have (also row 14 for the facades).
    public var wrongWireTypeInMapEntry = false
    /// Messages nest (known submessages) this many levels below the top-level message.
    public var maxDepth = 0
    /// The walk stopped at a malformed construct (the rest of the input was not seen).
    public var truncated = false

    public init() {}

    public var description: String {
        var names: [String] = []
        if duplicateSingularMessage { names.append("duplicateSingularMessage") }
        if nulInString { names.append("nulInString") }
        if narrowVarintOverflow { names.append("narrowVarintOverflow") }
        if overwideVarint { names.append("overwideVarint") }
        if unknownClosedEnumValue { names.append("unknownClosedEnumValue") }
        if wrongWireType { names.append("wrongWireType") }
        if overlongLength { names.append("overlongLength") }
        if invalidUTF8InString { names.append("invalidUTF8InString") }
        if tagAbove32Bits { names.append("tagAbove32Bits") }
        if wrongWireTypeInMapEntry { names.append("wrongWireTypeInMapEntry") }
        if truncated { names.append("truncated") }
        names.append("depth \(maxDepth)")
        return names.joined(separator: ", ")
    }

    /// Walks `bytes` as a message of `schema`. Never traps: every read is bounds-checked, every
    /// loop consumes input, and nesting is followed at most `depthLimit` levels.
    public static func scan(_ bytes: [UInt8], schema: MessageSchema, in schemas: SchemaSet, depthLimit: Int = 200) -> WireFeatures {
        var scanner = Scanner(bytes: bytes, schemas: schemas, depthLimit: depthLimit)
        if !scanner.message(schema, end: bytes.count, depth: 0, group: nil) { scanner.features.truncated = true }
        return scanner.features
    }
}

private struct Scanner {
    let bytes: [UInt8]
    let schemas: SchemaSet
    let depthLimit: Int
    var offset = 0
    var features = WireFeatures()

    init(bytes: [UInt8], schemas: SchemaSet, depthLimit: Int) {
        self.bytes = bytes; self.schemas = schemas; self.depthLimit = depthLimit
    }

    /// A varint of at most `maxBytes` bytes: its value truncated to 64 bits, its length, and whether
    /// bits above 64 were set. nil when the input ends inside it or it is longer.
    mutating func varint(end: Int, maxBytes: Int = 10) -> (value: UInt64, length: Int, overwide: Bool)? {
        var value: UInt64 = 0
        var length = 0
        var overwide = false
        while offset < end, length < maxBytes {
            let byte = bytes[offset]
            offset += 1
            if length == 9 && byte & 0x7E != 0 { overwide = true }
            if length < 10 { value |= UInt64(byte & 0x7F) << UInt64(7 * length) }
            length += 1
            if byte & 0x80 == 0 { return (value, length, overwide) }
        }
        return nil
    }

    /// Fields until `end` (or the end-group tag of `group`); false when the walk had to stop.
    mutating func message(_ schema: MessageSchema, end: Int, depth: Int, group: Int32?) -> Bool {
        features.maxDepth = max(features.maxDepth, depth)
        guard depth <= depthLimit else { return false }
        var seenSingularMessages: Set<Int32> = []
        var seenOneofMessages: Set<Int> = []
        while offset < end {
            guard let tag = varint(end: end, maxBytes: 5) else { return false }
            if tag.value > UInt64(UInt32.max) { features.tagAbove32Bits = true }
            let number = Int32(truncatingIfNeeded: UInt32(truncatingIfNeeded: tag.value) >> 3)
            guard let wire = WireType(rawValue: UInt8(tag.value & 7)) else { return false }
            if wire == .endGroup { return group == number }
            let field = schema.field(number: number)
            if schema.isMapEntry, let field, field.type.wireType != wire { features.wrongWireTypeInMapEntry = true }
            if let field, field.type == .message || field.type == .group, !field.isRepeated {
                if let index = field.oneofIndex, schema.oneofs.indices.contains(index), !schema.oneofs[index].isSynthetic {
                    if !seenOneofMessages.insert(index).inserted { features.duplicateSingularMessage = true }
                } else if !seenSingularMessages.insert(number).inserted {
                    features.duplicateSingularMessage = true
                }
            }
            switch wire {
            case .varint:
                guard let value = varint(end: end) else { return false }
                if let field { classify(value, field, wrongWire: field.type.wireType != .varint) }
            case .fixed64, .fixed32:
                let size = wire == .fixed64 ? 8 : 4
                guard end - offset >= size else { return false }
                offset += size
                if let field, field.type.wireType != wire { features.wrongWireType = true }
            case .lengthDelimited:
                guard let length = varint(end: end) else { return false }
                if length.length > 5 { features.overlongLength = true }
                guard length.value <= UInt64(end - offset) else { return false }
                let payloadEnd = offset + Int(length.value)
                if let field {
                    guard lengthDelimited(field, end: payloadEnd, depth: depth) else { return false }
                }
                offset = payloadEnd
            case .startGroup:
                if let field, field.type != .group { features.wrongWireType = true }
                let inner = field.flatMap { $0.type == .group ? $0.typeName.flatMap(schemas.message) : nil }
                if let inner {
                    guard message(inner, end: end, depth: depth + 1, group: number) else { return false }
                } else {
                    guard skipGroup(number, end: end, depth: depth + 1) else { return false }
                }
            case .endGroup:
                preconditionFailure("an end-group tag returns before the switch")
            }
        }
        return group == nil
    }

    /// The payload of a length-delimited known field, `offset..<end`.
    mutating func lengthDelimited(_ field: FieldSchema, end: Int, depth: Int) -> Bool {
        switch field.type {
        case .string:
            if bytes[offset..<end].contains(0) { features.nulInString = true }
            if String(validating: bytes[offset..<end], as: UTF8.self) == nil { features.invalidUTF8InString = true }
        case .bytes:
            break
        case .message:
            guard let inner = field.typeName.flatMap(schemas.message) else { return true }
            return message(inner, end: end, depth: depth + 1, group: nil)
        case .group:
            features.wrongWireType = true
        default:
            guard field.isRepeated, field.type.isPackable else { features.wrongWireType = true; return true }
            while offset < end {
                switch field.type.wireType {
                case .varint:
                    guard let value = varint(end: end) else { return false }
                    classify(value, field, wrongWire: false)
                case .fixed32: guard end - offset >= 4 else { return false }; offset += 4
                default: guard end - offset >= 8 else { return false }; offset += 8
                }
            }
        }
        return true
    }

    /// Records what a varint in a known field is exposed to.
    mutating func classify(_ value: (value: UInt64, length: Int, overwide: Bool), _ field: FieldSchema, wrongWire: Bool) {
        if wrongWire { features.wrongWireType = true; return }
        if value.overwide { features.overwideVarint = true }
        let narrowUnsigned: Bool
        switch field.type {
        case .uint32, .sint32, .bool: narrowUnsigned = true
        case .enum:
            let enumType = field.typeName.flatMap(schemas.enumType)
            let values = enumType?.values ?? []
            narrowUnsigned = !values.contains { $0.number < 0 }
            if enumType?.isClosed == true, !values.contains(where: { Int64($0.number) == Int64(Int32(truncatingIfNeeded: value.value)) }) {
                features.unknownClosedEnumValue = true
            }
        default: narrowUnsigned = false
        }
        if narrowUnsigned && value.value > UInt64(UInt32.max) { features.narrowVarintOverflow = true }
    }

    /// Skips an unknown group through its matching end-group tag.
    mutating func skipGroup(_ number: Int32, end: Int, depth: Int) -> Bool {
        features.maxDepth = max(features.maxDepth, depth)
        guard depth <= depthLimit else { return false }
        while offset < end {
            guard let tag = varint(end: end, maxBytes: 5) else { return false }
            if tag.value > UInt64(UInt32.max) { features.tagAbove32Bits = true }
            let inner = Int32(truncatingIfNeeded: UInt32(truncatingIfNeeded: tag.value) >> 3)
            switch tag.value & 7 {
            case 0: guard varint(end: end) != nil else { return false }
            case 1: guard end - offset >= 8 else { return false }; offset += 8
            case 2:
                guard let length = varint(end: end) else { return false }
                if length.length > 5 { features.overlongLength = true }
                guard length.value <= UInt64(end - offset) else { return false }
                offset += Int(length.value)
            case 3: guard skipGroup(inner, end: end, depth: depth + 1) else { return false }
            case 4: return inner == number
            case 5: guard end - offset >= 4 else { return false }; offset += 4
            default: return false
            }
        }
        return false
    }
}
