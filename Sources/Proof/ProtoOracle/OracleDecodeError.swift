/// Why the oracle's binary decoder rejected its input, and where.
///
/// `offset` is the index into the input of the first byte of the construct at fault: the tag, the
/// varint, the length prefix, the fixed-width value or the first byte of the ill-formed UTF-8
/// sequence, as each case's comment says.
public struct OracleDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The input (or the enclosing message) ends inside a varint; offset: the varint's first byte.
        case truncatedVarint
        /// The input (or the enclosing message) ends inside a fixed32 or fixed64 value; offset: its first byte.
        case truncatedFixed
        /// A length prefix reaches past the end of the input or the enclosing message; offset: the prefix.
        case lengthPastEnd
        /// A varint longer than 10 bytes, or a tag longer than 5 bytes; offset: its first byte.
        case overlongVarint
        /// A length prefix longer than 5 bytes (Google's parsers read sizes as 32-bit values of
        /// at most 5 bytes); offset: the prefix.
        case overlongLength
        /// A 10-byte varint whose last byte is above 1 (only with `rejectOverwideVarints`); offset: its first byte.
        case overwideVarint
        /// A tag with wire type 6 or 7; offset: the tag.
        case invalidWireType
        /// A tag with field number 0; offset: the tag.
        case fieldNumberZero
        /// A tag whose field number is above 536,870,911 (2^29 - 1); offset: the tag. The binary
        /// decoder no longer throws it: it truncates tags to 32 bits as Google's parsers do, so
        /// every tag it reads has a number of at most 2^29 - 1.
        case fieldNumberTooLarge
        /// A proto3 string holds bytes that are not UTF-8; offset: the first byte of the bad sequence.
        case invalidUTF8
        /// An end-group tag whose number is not the open group's; offset: the end-group tag.
        case mismatchedEndGroup
        /// An end-group tag while no group is open; offset: the end-group tag.
        case unexpectedEndGroup
        /// The input (or the enclosing message) ends inside a group; offset: the start-group tag.
        case unterminatedGroup
        /// Messages and groups nest deeper than `maxDepth`; offset: the tag of the first one too deep.
        case nestingTooDeep
    }

    public let reason: Reason
    public let offset: Int

    public init(_ reason: Reason, at offset: Int) { self.reason = reason; self.offset = offset }

    public var description: String { "\(reason) at byte \(offset)" }
}
