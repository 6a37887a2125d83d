// What the live peer (`wirepeer`) and the network fuzz driver (`netfuzz`) agree on, and nothing
// else: framing on streams, the answer's layout, and the limits the peer enforces on hostile input.
//
// Stream (TCP, TLS): a request is a 4-byte big-endian length N (N <= maximumFrame) and N bytes of
// message; the answer is framed the same way and holds an `Answer`. Datagram (UDP): a request is
// one datagram holding the message; the answer is one datagram holding an `Answer`.
//
// Answer: one status byte, then the body — the facade's re-encoding (`decoded`), the decode
// error's text (`rejected`), or the reason the request was refused.

/// Framing and answers of the peer protocol.
public enum PeerProtocol {
    /// The largest request a stream peer reads; a longer length prefix is answered `refused` and the
    /// connection closed (a hostile prefix must not make the peer allocate gigabytes).
    public static let maximumFrame = 1 << 20
    /// The largest UDP payload over IPv4.
    public static let maximumDatagram = 65_507
    /// The default message type: the bundled schema's data packet.
    public static let defaultMessageType = "rtm.DataPacket"

    /// How the peer answered one request.
    public enum Status: UInt8, Sendable, CustomStringConvertible {
        /// The facade decoded the message; the body is its re-encoding.
        case decoded = 0
        /// The facade rejected the message with a typed error; the body is its description.
        case rejected = 1
        /// The request broke the protocol (frame too long); the body says why.
        case refused = 2
        /// The re-encoding does not fit in one datagram; the body is empty.
        case answerTooLarge = 3

        public var description: String {
            switch self {
            case .decoded: return "decoded"
            case .rejected: return "rejected"
            case .refused: return "refused"
            case .answerTooLarge: return "answer too large"
            }
        }
    }

    /// `payload` behind its 4-byte big-endian length.
    public static func frame(_ payload: [UInt8]) -> [UInt8] {
        let n = UInt32(payload.count)
        return [UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)] + payload
    }

    /// The length a 4-byte frame header announces (nil unless exactly 4 bytes).
    public static func frameLength<C: Collection>(header: C) -> Int? where C.Element == UInt8 {
        guard header.count == 4 else { return nil }
        return header.reduce(0) { $0 << 8 | Int($1) }
    }

    /// An answer: status byte, then body.
    public static func answer(_ status: Status, _ body: [UInt8]) -> [UInt8] { [status.rawValue] + body }

    /// Splits an answer into status and body; nil for an empty answer or an unknown status.
    public static func parseAnswer<C: Collection>(_ bytes: C) -> (status: Status, body: [UInt8])? where C.Element == UInt8 {
        guard let first = bytes.first, let status = Status(rawValue: first) else { return nil }
        return (status, Array(bytes.dropFirst()))
    }
}
