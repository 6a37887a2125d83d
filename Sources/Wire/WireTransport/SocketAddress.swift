import Glibc

/// Host, port, datagram? to every address for them, in the order they should be tried.
typealias AddressResolver = @Sendable (_ host: String, _ port: UInt16, _ datagram: Bool) throws(WireError) -> [SocketAddress]

/// An IPv4 or IPv6 socket address (a `sockaddr_storage` and its length).
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    var storage: sockaddr_storage
    var length: socklen_t

    init(storage: sockaddr_storage, length: socklen_t) { self.storage = storage; self.length = length }

    /// Resolves `host` (name or literal) for `port` with getaddrinfo; every result, in order.
    /// Blocking: called on a connection's internal queue only.
    static func resolve(host: String, port: UInt16, datagram: Bool) throws(WireError) -> [SocketAddress] {
        try lookup(host: host, port: port, datagram: datagram, flags: AI_NUMERICSERV | AI_ADDRCONFIG)
    }

    /// A literal address only, never a lookup, whatever addresses the machine has configured (for
    /// binding to a local endpoint).
    static func resolveNumeric(host: String, port: UInt16, datagram: Bool) throws(WireError) -> [SocketAddress] {
        try lookup(host: host, port: port, datagram: datagram, flags: AI_NUMERICSERV | AI_NUMERICHOST | AI_PASSIVE)
    }

    private static func lookup(host: String, port: UInt16, datagram: Bool, flags: Int32) throws(WireError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Sys.socketType(datagram: datagram)
        hints.ai_flags = flags
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw .resolution(host: host, reason: String(cString: gai_strerror(rc)))
        }
        defer { freeaddrinfo(first) }
        var result: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            var storage = sockaddr_storage()
            let length = info.pointee.ai_addrlen
            // SAFETY: ai_addr points to ai_addrlen bytes (<= sizeof(sockaddr_storage)) owned by the list.
            withUnsafeMutableBytes(of: &storage) { dst in
                dst.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(length)))
            }
            result.append(SocketAddress(storage: storage, length: length))
            cursor = info.pointee.ai_next
        }
        return result
    }

    var family: Int32 { Int32(storage.ss_family) }

    /// The port in host byte order.
    public var port: UInt16 {
        withUnsafeBytes(of: storage) { raw in
            // sin_port and sin6_port both sit at offset 2.
            UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        }
    }

    /// The numeric host ("127.0.0.1", "::1").
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let rc = withSockAddr { getnameinfo($0, $1, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) }
        return rc == 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }

    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in
            // SAFETY: sockaddr_storage is laid out to be viewed as any sockaddr; `length` bytes are valid.
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    public static func == (a: SocketAddress, b: SocketAddress) -> Bool {
        a.length == b.length && withUnsafeBytes(of: a.storage) { ra in
            withUnsafeBytes(of: b.storage) { rb in ra.prefix(Int(a.length)).elementsEqual(rb.prefix(Int(b.length))) }
        }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: storage) { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(Int(length)))) }
    }
}
