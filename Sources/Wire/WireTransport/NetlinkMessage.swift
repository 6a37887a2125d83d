import CWireTransport

/// Why (part of) a netlink datagram was skipped. The kernel is trusted to send well-formed
/// messages, but the parser does not rely on it: every length is checked before it is used.
enum NetlinkParseError: Error, Equatable, CustomStringConvertible {
    /// Fewer bytes remain than a message header needs; the rest of the datagram is dropped.
    case truncatedHeader(offset: Int, remaining: Int)
    /// A header's length is below the header's size or past the datagram's end; the rest of the
    /// datagram is dropped (the next message cannot be found).
    case badMessageLength(offset: Int, length: Int, remaining: Int)
    /// A message of `type` is shorter than its fixed part; that message is skipped.
    case truncatedBody(type: UInt16, length: Int, needed: Int)
    /// An attribute's length is below its header or past its message's end; that message is skipped.
    case badAttribute(type: UInt16, offset: Int, length: Int)
    /// A datagram longer than the receive buffer (MSG_TRUNC); it is skipped whole, not read in part.
    case datagramTooLong(length: Int, buffer: Int)

    var description: String {
        switch self {
        case let .truncatedHeader(offset, remaining): return "\(remaining) bytes at offset \(offset): shorter than a message header"
        case let .badMessageLength(offset, length, remaining): return "message at offset \(offset) claims \(length) bytes, \(remaining) remain"
        case let .truncatedBody(type, length, needed): return "message type \(type) of \(length) bytes, its fixed part needs \(needed)"
        case let .badAttribute(type, offset, length): return "message type \(type): attribute at offset \(offset) claims \(length) bytes"
        case let .datagramTooLong(length, buffer): return "datagram of \(length) bytes, the buffer holds \(buffer)"
        }
    }
}

/// Bounds-checked reads of host-order integers (netlink's byte order) from a byte slice.
struct NetlinkBytes {
    let bytes: ArraySlice<UInt8>

    /// The value at `offset` (from the slice's start), or nil when it does not fit.
    func value<T: FixedWidthInteger>(at offset: Int, as: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard offset >= 0, offset <= bytes.count - size else { return nil }
        let start = bytes.startIndex + offset
        // SAFETY: start ..< start + size lies inside the slice (checked above); the load is unaligned.
        return bytes[start ..< start + size].withUnsafeBytes { $0.loadUnaligned(as: T.self) }
    }

    var count: Int { bytes.count }
}

/// One netlink message: its header fields and its payload (the bytes after the header).
struct NetlinkMessage {
    let type: UInt16
    let flags: UInt16
    let sequence: UInt32
    let payload: ArraySlice<UInt8>

    static let headerSize = 16
    static func aligned(_ n: Int) -> Int { (n + 3) & ~3 }

    /// Splits a datagram into messages. A header whose length cannot be trusted ends the split
    /// (returned as the error, with every message before it); the loop advances by at least one
    /// header per message, so it ends.
    static func split(_ datagram: ArraySlice<UInt8>) -> (messages: [NetlinkMessage], error: NetlinkParseError?) {
        var messages: [NetlinkMessage] = []
        var offset = 0
        let reader = NetlinkBytes(bytes: datagram)
        while offset < datagram.count {
            let remaining = datagram.count - offset
            guard remaining >= headerSize, let length = reader.value(at: offset, as: UInt32.self),
                  let type = reader.value(at: offset + 4, as: UInt16.self),
                  let flags = reader.value(at: offset + 6, as: UInt16.self),
                  let sequence = reader.value(at: offset + 8, as: UInt32.self)
            else { return (messages, .truncatedHeader(offset: offset, remaining: remaining)) }
            guard Int(length) >= headerSize, Int(length) <= remaining else {
                return (messages, .badMessageLength(offset: offset, length: Int(length), remaining: remaining))
            }
            let start = datagram.startIndex + offset
            messages.append(NetlinkMessage(type: type, flags: flags, sequence: sequence,
                                           payload: datagram[start + headerSize ..< start + Int(length)]))
            offset += min(aligned(Int(length)), remaining)
        }
        return (messages, nil)
    }

    /// The attributes after a fixed part of `fixedSize` bytes: type (flag bits masked off) to value.
    /// A later attribute of the same type replaces an earlier one. Each step consumes at least one
    /// attribute header, so the loop ends.
    func attributes(after fixedSize: Int) throws(NetlinkParseError) -> [UInt16: ArraySlice<UInt8>] {
        guard payload.count >= fixedSize else {
            throw .truncatedBody(type: type, length: payload.count + Self.headerSize, needed: fixedSize + Self.headerSize)
        }
        let reader = NetlinkBytes(bytes: payload)
        var result: [UInt16: ArraySlice<UInt8>] = [:]
        var offset = Self.aligned(fixedSize)
        while offset + 4 <= payload.count {
            guard let length = reader.value(at: offset, as: UInt16.self), let kind = reader.value(at: offset + 2, as: UInt16.self),
                  Int(length) >= 4, offset + Int(length) <= payload.count
            else {
                throw .badAttribute(type: type, offset: offset, length: Int(reader.value(at: offset, as: UInt16.self) ?? 0))
            }
            let start = payload.startIndex + offset
            result[kind & 0x3FFF] = payload[start + 4 ..< start + Int(length)]  // without NLA_F_NESTED / NLA_F_NET_BYTEORDER
            offset += Self.aligned(Int(length))
        }
        return result
    }

    /// The errno of an NLMSG_ERROR message (0 is an acknowledgement), nil if it is too short.
    var errorCode: Int32? {
        NetlinkBytes(bytes: payload).value(at: 0, as: Int32.self).map { -$0 }
    }

    /// A request: header (length, type, flags, sequence, port 0) then `body`.
    static func request(type: Int32, flags: Int32, sequence: UInt32, body: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize + body.count)
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v) { bytes.append(contentsOf: $0) } }
        put(UInt32(headerSize + body.count))
        put(UInt16(truncatingIfNeeded: type))
        put(UInt16(truncatingIfNeeded: flags))
        put(sequence)
        put(UInt32(0))
        bytes.append(contentsOf: body)
        return bytes
    }

    /// An attribute (header, value, padding to 4 bytes).
    static func attribute(type: Int32, value: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt16(4 + value.count)) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt16(truncatingIfNeeded: type)) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: value)
        bytes.append(contentsOf: [UInt8](repeating: 0, count: aligned(bytes.count) - bytes.count))
        return bytes
    }
}
