import ProtoSchema

/// The order map entries are written in.
public enum MapEntryOrder: Sendable, Hashable {
    /// Insertion order of the `ProtoMap` (what a runtime that keeps entries in an array writes).
    case insertion
    /// Ascending key order, as Google's deterministic serialization (`protoc --deterministic_output`)
    /// writes it; see `MapKey.deterministicOrder`.
    case sortedByKey
}

/// How repeated scalar fields (numbers, bools, enums) are written.
public enum RepeatedPacking: Sendable, Hashable {
    /// As the schema declares (`FieldSchema.isPacked`): what Google's implementations write.
    case asDeclared
    /// Every packable repeated field packed, whatever `[packed = ...]` or the syntax says: what
    /// nanopb writes (its encoder packs every packable array and ignores the option). Decoders
    /// must accept both forms, so the meaning is the same; only the bytes differ.
    case allPackable
}

/// Options of the binary encoder.
public struct BinaryEncodingOptions: Sendable, Hashable {
    public var mapEntryOrder: MapEntryOrder = .insertion
    public var packing: RepeatedPacking = .asDeclared

    public init(mapEntryOrder: MapEntryOrder = .insertion, packing: RepeatedPacking = .asDeclared) {
        self.mapEntryOrder = mapEntryOrder
        self.packing = packing
    }

    /// The encoding nanopb writes for the same message: every packable repeated field packed, and
    /// map entries in key order (the facades' builders store maps sorted by key). Comparing facade
    /// bytes with the oracle under this profile isolates real disagreements from these two.
    public static let nanopb = BinaryEncodingOptions(mapEntryOrder: .sortedByKey, packing: .allPackable)
}

extension DynamicMessage {
    /// The canonical encoding of the message, as Google's implementations write it: present known
    /// fields in field-number order (packed where `FieldSchema.isPacked`; `options.packing` can
    /// change that), map entries with both key and value always written, then unknown fields byte
    /// for byte.
    public func serializedBytes(options: BinaryEncodingOptions = .init()) -> [UInt8] {
        BinaryEncoder(options: options).encode(self)
    }

    /// The exact length of `serializedBytes(options:)`.
    public func serializedSize(options: BinaryEncodingOptions = .init()) -> Int {
        BinaryEncoder(options: options).size(of: self)
    }
}

/// Two-pass encoder: `size(of:)` computes the exact length, `write` fills a buffer reserved at that
/// length, and `encode` checks the two agree (a mismatch is a bug in this file, so it traps).
struct BinaryEncoder {
    /// Encoding choices that do not change the message's meaning.
    let options: BinaryEncodingOptions

    func encode(_ message: DynamicMessage) -> [UInt8] {
        let size = size(of: message)
        var out: [UInt8] = []
        out.reserveCapacity(size)
        write(message, into: &out)
        precondition(out.count == size, "encoder wrote \(out.count) bytes, size pass computed \(size)")
        return out
    }

    /// Whether a repeated field is written packed under `options.packing`.
    private func isPacked(_ field: FieldSchema) -> Bool {
        switch options.packing {
        case .asDeclared: return field.isPacked
        case .allPackable: return field.type.isPackable
        }
    }

    // MARK: Size pass

    func size(of message: DynamicMessage) -> Int {
        var total = 0
        for field in message.layout.sortedFields {
            guard let content = message.content(number: field.number) else { continue }
            total += size(of: content, field: field, in: message)
        }
        for unknown in message.unknownFields { total += Wire.tagSize(unknown.number) + unknown.payload.count }
        return total
    }

    private func size(of content: FieldContent, field: FieldSchema, in message: DynamicMessage) -> Int {
        let tag = Wire.tagSize(field.number)
        switch content {
        case let .single(value):
            return tag + valueSize(value, field)
        case let .repeated(values):
            if isPacked(field) {
                let payload = values.reduce(0) { $0 + valueSize($1, field) }
                return tag + Wire.varintSize(UInt64(payload)) + payload
            }
            return values.reduce(0) { $0 + tag + valueSize($1, field) }
        case let .map(map):
            guard let entry = message.layout.mapEntries[field.number] else { return 0 }
            return map.entries.reduce(0) { total, item in
                let body = entrySize(item.key, item.value, entry)
                return total + tag + Wire.varintSize(UInt64(body)) + body
            }
        }
    }

    private func entrySize(_ key: MapKey, _ value: ProtoValue, _ entry: MapEntryFields) -> Int {
        Wire.tagSize(1) + valueSize(key.value, entry.key) + Wire.tagSize(2) + valueSize(value, entry.value)
    }

    /// Bytes a value takes after its tag. For groups this includes the end-group tag.
    private func valueSize(_ value: ProtoValue, _ field: FieldSchema) -> Int {
        switch field.type.wireType {
        case .varint: return Wire.varintSize(varintBits(value, field.type))
        case .fixed32: return 4
        case .fixed64: return 8
        case .startGroup, .endGroup:
            guard case let .message(inner) = value else { return 0 }
            return size(of: inner) + Wire.tagSize(field.number)
        case .lengthDelimited:
            let length: Int
            switch value {
            case let .string(bytes), let .bytes(bytes): length = bytes.count
            case let .message(inner): length = size(of: inner)
            default: length = 0
            }
            return Wire.varintSize(UInt64(length)) + length
        }
    }

    // MARK: Write pass

    func write(_ message: DynamicMessage, into out: inout [UInt8]) {
        for field in message.layout.sortedFields {
            guard let content = message.content(number: field.number) else { continue }
            write(content, field: field, in: message, into: &out)
        }
        for unknown in message.unknownFields {
            Wire.appendTag(unknown.number, unknown.wireType, to: &out)
            out.append(contentsOf: unknown.payload)
        }
    }

    private func write(_ content: FieldContent, field: FieldSchema, in message: DynamicMessage, into out: inout [UInt8]) {
        switch content {
        case let .single(value):
            Wire.appendTag(field.number, field.type.wireType, to: &out)
            writeValue(value, field, into: &out)
        case let .repeated(values):
            if isPacked(field) {
                Wire.appendTag(field.number, .lengthDelimited, to: &out)
                let payload = values.reduce(0) { $0 + valueSize($1, field) }
                Wire.appendVarint(UInt64(payload), to: &out)
                for value in values { writeValue(value, field, into: &out) }
            } else {
                for value in values {
                    Wire.appendTag(field.number, field.type.wireType, to: &out)
                    writeValue(value, field, into: &out)
                }
            }
        case let .map(map):
            guard let entry = message.layout.mapEntries[field.number] else { return }
            var entries = map.entries
            if options.mapEntryOrder == .sortedByKey {
                entries.sort { MapKey.deterministicOrder($0.key, $1.key) }
            }
            for (key, value) in entries {
                Wire.appendTag(field.number, .lengthDelimited, to: &out)
                Wire.appendVarint(UInt64(entrySize(key, value, entry)), to: &out)
                Wire.appendTag(1, entry.key.type.wireType, to: &out)
                writeValue(key.value, entry.key, into: &out)
                Wire.appendTag(2, entry.value.type.wireType, to: &out)
                writeValue(value, entry.value, into: &out)
            }
        }
    }

    /// Writes what follows the tag: the varint, fixed bytes, length and content, or a group's
    /// fields and end-group tag.
    private func writeValue(_ value: ProtoValue, _ field: FieldSchema, into out: inout [UInt8]) {
        switch field.type.wireType {
        case .varint:
            Wire.appendVarint(varintBits(value, field.type), to: &out)
        case .fixed32:
            switch value {
            case let .int32(v): Wire.appendFixed32(UInt32(bitPattern: v), to: &out)
            case let .uint32(v): Wire.appendFixed32(v, to: &out)
            case let .float(v): Wire.appendFixed32(v.bitPattern, to: &out)
            default: preconditionFailure("fixed32 field holds \(value)")
            }
        case .fixed64:
            switch value {
            case let .int64(v): Wire.appendFixed64(UInt64(bitPattern: v), to: &out)
            case let .uint64(v): Wire.appendFixed64(v, to: &out)
            case let .double(v): Wire.appendFixed64(v.bitPattern, to: &out)
            default: preconditionFailure("fixed64 field holds \(value)")
            }
        case .lengthDelimited:
            switch value {
            case let .string(bytes), let .bytes(bytes):
                Wire.appendVarint(UInt64(bytes.count), to: &out)
                out.append(contentsOf: bytes)
            case let .message(inner):
                Wire.appendVarint(UInt64(size(of: inner)), to: &out)
                write(inner, into: &out)
            default: preconditionFailure("length-delimited field holds \(value)")
            }
        case .startGroup, .endGroup:
            guard case let .message(inner) = value else { preconditionFailure("group field holds \(value)") }
            write(inner, into: &out)
            Wire.appendTag(field.number, .endGroup, to: &out)
        }
    }

    /// The 64 bits a varint-typed value is written as: int32 and enums sign-extended (so negative
    /// values take 10 bytes), sint32/sint64 zigzagged, bool as 0 or 1.
    private func varintBits(_ value: ProtoValue, _ type: FieldType) -> UInt64 {
        switch (value, type) {
        case let (.int32(v), .sint32): return UInt64(Wire.zigzag32(v))
        case let (.int32(v), _): return UInt64(bitPattern: Int64(v))
        case let (.int64(v), .sint64): return Wire.zigzag64(v)
        case let (.int64(v), _): return UInt64(bitPattern: v)
        case let (.uint32(v), _): return UInt64(v)
        case let (.uint64(v), _): return v
        case let (.bool(v), _): return v ? 1 : 0
        case let (.enumValue(v), _): return UInt64(bitPattern: Int64(v))
        default: preconditionFailure("varint field of type \(type) holds \(value)")
        }
    }
}
