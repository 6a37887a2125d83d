// The runtime's one error type: why nanopb refused to encode or decode, as a value callers (tests,
// the differential fuzzer) compare by case, never by string.

/// Why a message could not be decoded or encoded.
public enum NanopbError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not an acceptable encoding of the message; decoding stopped at byte `offset`
    /// (for a failure inside a submessage, nanopb reports the end of the outermost enclosing
    /// length-delimited field, because the parent stream has already consumed it).
    case decodeFailed(reason: Reason, offset: Int)
    /// The message cannot be encoded (a proto2 required field is missing).
    case encodeFailed(reason: Reason)

    /// The reason for a failure. The runtime's own limits have cases with their parameters;
    /// nanopb's constant error messages (`PB_RETURN_ERROR`) that hostile input can reach map to
    /// one case each; any other message is kept verbatim in `other`.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// Submessages nested deeper than `limit` levels (checked inside nanopb's submessage
        /// decoder, patches/nanopb/0100-depth-limit.patch).
        case nestingTooDeep(limit: Int)
        /// Decoding would have allocated more than `budget` bytes (`NanopbDecodeOptions`, charged
        /// inside nanopb's decoder by patches/nanopb/0200-allocation-budget.patch); the error's
        /// offset is where the refused allocation was asked for.
        case budgetExceeded(budget: Int)
        /// "end-of-stream": a tag, value or length runs past the end of the input.
        case endOfStream
        /// "parent stream too short": a length-delimited field claims more bytes than remain.
        case parentStreamTooShort
        /// "invalid wire_type": wire type 6 or 7, or a group wire type nanopb cannot skip.
        case invalidWireType
        /// "wrong wire type": a known field arrived with a wire type that does not match its type.
        case wrongWireType
        /// "zero tag": field number 0.
        case zeroTag
        /// "varint overflow": a varint longer than 10 bytes, or a tag beyond 32 bits.
        case varintOverflow
        /// "integer too large": a varint that does not fit the field's integer width.
        case integerTooLarge
        /// "missing required field": a proto2 required field is absent.
        case missingRequiredField
        /// "too many array entries": a repeated field would exceed pb_size_t's range.
        case tooManyArrayEntries
        /// "size too large" / "bytes overflow" / "string overflow": a length that cannot be
        /// represented or allocated.
        case sizeTooLarge
        /// "realloc failed": the allocator refused (out of memory), outside any budget.
        case outOfMemory
        /// "invalid utf8": a string field that is not UTF-8 (only with PB_VALIDATE_UTF8).
        case invalidUTF8
        /// Any other message nanopb reported, verbatim.
        case other(String)

        /// nanopb's message (or the runtime's) for this reason.
        public var description: String {
            switch self {
            case .nestingTooDeep(let limit): return "nesting deeper than \(limit) levels"
            case .budgetExceeded(let budget): return "allocation budget of \(budget) bytes exceeded"
            case .endOfStream: return "end-of-stream"
            case .parentStreamTooShort: return "parent stream too short"
            case .invalidWireType: return "invalid wire_type"
            case .wrongWireType: return "wrong wire type"
            case .zeroTag: return "zero tag"
            case .varintOverflow: return "varint overflow"
            case .integerTooLarge: return "integer too large"
            case .missingRequiredField: return "missing required field"
            case .tooManyArrayEntries: return "too many array entries"
            case .sizeTooLarge: return "size too large"
            case .outOfMemory: return "realloc failed"
            case .invalidUTF8: return "invalid utf8"
            case .other(let message): return message
            }
        }

        /// The case for one of nanopb's constant messages (`other` for anything unlisted).
        init(nanopbMessage message: String) {
            switch message {
            case "end-of-stream": self = .endOfStream
            case "parent stream too short": self = .parentStreamTooShort
            case "invalid wire_type": self = .invalidWireType
            case "wrong wire type": self = .wrongWireType
            case "zero tag": self = .zeroTag
            case "varint overflow": self = .varintOverflow
            case "integer too large": self = .integerTooLarge
            case "missing required field": self = .missingRequiredField
            case "too many array entries": self = .tooManyArrayEntries
            case "size too large", "bytes overflow", "string overflow": self = .sizeTooLarge
            case "realloc failed": self = .outOfMemory
            case "invalid utf8": self = .invalidUTF8
            default: self = .other(message)
            }
        }
    }

    public var description: String {
        switch self {
        case .decodeFailed(let reason, let offset): return "decode failed at byte \(offset): \(reason)"
        case .encodeFailed(let reason): return "encode failed: \(reason)"
        }
    }
}
