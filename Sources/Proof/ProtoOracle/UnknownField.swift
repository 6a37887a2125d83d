import ProtoSchema

/// A field the schema does not declare (or a known field that arrived with a wire type its type
/// cannot use, or a closed-enum number the enum does not declare), kept as received.
///
/// Invariant: `payload` is exactly the bytes that followed the tag on the wire, so re-encoding
/// writes the field back byte for byte:
/// - `.varint`: the varint as received (up to 10 bytes, padding included);
/// - `.fixed64` / `.fixed32`: the 8 or 4 little-endian bytes;
/// - `.lengthDelimited`: the length prefix followed by the content;
/// - `.startGroup`: the group's content followed by its end-group tag.
/// `.endGroup` never appears.
public struct UnknownField: Sendable, Hashable {
    public let number: Int32
    public let wireType: WireType
    public let payload: [UInt8]

    /// A field with the given raw payload; the caller guarantees the invariant above.
    public init(number: Int32, wireType: WireType, payload: [UInt8]) {
        self.number = number; self.wireType = wireType; self.payload = payload
    }

    /// A varint field holding `value` in its shortest encoding.
    public static func varint(_ number: Int32, _ value: UInt64) -> UnknownField {
        var payload: [UInt8] = []
        Wire.appendVarint(value, to: &payload)
        return UnknownField(number: number, wireType: .varint, payload: payload)
    }

    /// A fixed32 field holding `value`.
    public static func fixed32(_ number: Int32, _ value: UInt32) -> UnknownField {
        var payload: [UInt8] = []
        Wire.appendFixed32(value, to: &payload)
        return UnknownField(number: number, wireType: .fixed32, payload: payload)
    }

    /// A fixed64 field holding `value`.
    public static func fixed64(_ number: Int32, _ value: UInt64) -> UnknownField {
        var payload: [UInt8] = []
        Wire.appendFixed64(value, to: &payload)
        return UnknownField(number: number, wireType: .fixed64, payload: payload)
    }

    /// A length-delimited field holding `content` (the length prefix is added).
    public static func lengthDelimited(_ number: Int32, _ content: [UInt8]) -> UnknownField {
        var payload: [UInt8] = []
        Wire.appendVarint(UInt64(content.count), to: &payload)
        payload.append(contentsOf: content)
        return UnknownField(number: number, wireType: .lengthDelimited, payload: payload)
    }

    /// A group field whose content is `content` (the end-group tag is added).
    public static func group(_ number: Int32, _ content: [UInt8]) -> UnknownField {
        var payload = content
        Wire.appendTag(number, .endGroup, to: &payload)
        return UnknownField(number: number, wireType: .startGroup, payload: payload)
    }

    /// The bytes this field occupies on the wire: tag then payload.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        Wire.appendTag(number, wireType, to: &out)
        out.append(contentsOf: payload)
        return out
    }
}
