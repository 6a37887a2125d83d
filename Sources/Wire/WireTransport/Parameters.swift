import Glibc

/// What a connection or listener runs: TCP (plain or with TLS on top) or UDP, with the options of
/// each layer, in the shape of Network.framework's NWParameters. `.tcp`, `.udp` and `.tls(options)`
/// are the common spellings.
public struct Parameters: Sendable, Hashable {
    /// TLS on top of TCP when set; nil for plain TCP (and always nil for UDP).
    public var tls: TLSOptions?
    /// Options of the TCP layer (ignored for UDP except `connectionTimeout`).
    public var tcp: TCPOptions
    /// UDP instead of TCP.
    public let isDatagram: Bool
    /// The local address outgoing sockets bind to before they connect (NWParameters'
    /// `requiredLocalEndpoint`): a source address, a fixed source port, or both. Addresses of the
    /// host in the other family are skipped. A listener ignores it: its host and port say where
    /// it listens. nil: the kernel picks (the default).
    public var requiredLocalEndpoint: LocalEndpoint? = nil
    /// The interface every socket is bound to by name (SO_BINDTODEVICE; NWParameters'
    /// `requiredInterface`), for connections and listeners: traffic leaves and arrives only
    /// there. Needs CAP_NET_RAW on older kernels. nil: any interface (the default).
    public var requiredInterfaceName: String? = nil
    /// SO_REUSEADDR and SO_REUSEPORT on every socket (NWParameters' `allowLocalEndpointReuse`):
    /// several listeners of one process or of several can share a port (the kernel spreads
    /// connections and datagrams over them), and a connection can take a fixed local port still in
    /// TIME_WAIT. Default false; listeners set SO_REUSEADDR regardless, so a restarted server can
    /// bind its port at once.
    public var allowLocalEndpointReuse: Bool = false

    public init(tls: TLSOptions? = nil, tcp: TCPOptions = TCPOptions()) {
        self.tls = tls
        self.tcp = tcp
        self.isDatagram = false
    }

    private init(datagram: Void) {
        tls = nil
        tcp = TCPOptions()
        isDatagram = true
    }

    public static var tcp: Parameters { Parameters() }
    public static var udp: Parameters { Parameters(datagram: ()) }
    public static func tls(_ options: TLSOptions, tcp: TCPOptions = TCPOptions()) -> Parameters { Parameters(tls: options, tcp: tcp) }
}

/// Options of the TCP layer (NWProtocolTCP.Options' shape).
///
/// Defaults are chosen so that a silent peer cannot hold a connection in `preparing` for long:
/// `connectionTimeout` bounds one attempt's TCP connect over all of the host's addresses.
public struct TCPOptions: Sendable, Hashable {
    /// Seconds one connect attempt (every address of the host, raced) may take before it fails
    /// with `WireError.timedOut(.connect, …)`; that failure is recoverable (the connection waits and
    /// retries under its `RetryPolicy`). nil: only the kernel's own SYN retries bound it (about
    /// two minutes on Linux). Default 30.
    public var connectionTimeout: Double?
    /// Seconds between starting connects to successive addresses of a host while earlier ones
    /// are still pending (RFC 8305's Connection Attempt Delay; it recommends 250 ms and a range of
    /// 100 ms to 2 s). A refused address moves on to the next at once. Default 0.25.
    public var connectionAttemptDelay: Double
    /// TCP_NODELAY: small writes leave at once instead of waiting for the previous segment's
    /// acknowledgement (Nagle's algorithm off). Default true: a request-response protocol of small
    /// messages otherwise waits up to one round trip plus the peer's delayed-ACK timer per message.
    public var noDelay: Bool
    /// SO_KEEPALIVE: the kernel probes an idle connection, so a peer that vanished without a FIN or
    /// RST (power loss, a NAT that dropped the mapping) fails the connection with
    /// `failed(recv: ETIMEDOUT)` instead of leaving it `ready` for ever. Default false.
    public var enableKeepalive: Bool
    /// Seconds of idleness before the first probe (TCP_KEEPIDLE); 0 keeps the kernel's default
    /// (7,200 s on Linux). Only with `enableKeepalive`.
    public var keepaliveIdle: Int
    /// Seconds between probes (TCP_KEEPINTVL); 0 keeps the kernel's default (75 s).
    public var keepaliveInterval: Int
    /// Unanswered probes before the connection fails (TCP_KEEPCNT); 0 keeps the kernel's default (9).
    public var keepaliveCount: Int

    public init(connectionTimeout: Double? = 30, connectionAttemptDelay: Double = 0.25, noDelay: Bool = true,
                enableKeepalive: Bool = false, keepaliveIdle: Int = 0, keepaliveInterval: Int = 0, keepaliveCount: Int = 0) {
        self.connectionTimeout = connectionTimeout
        self.connectionAttemptDelay = connectionAttemptDelay
        self.noDelay = noDelay
        self.enableKeepalive = enableKeepalive
        self.keepaliveIdle = keepaliveIdle
        self.keepaliveInterval = keepaliveInterval
        self.keepaliveCount = keepaliveCount
    }

    /// Applies the socket-level options to a connected (or accepted) TCP socket.
    func apply(to fd: Int32) throws(SystemError) {
        try Sys.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: noDelay ? 1 : 0)
        guard enableKeepalive else { return }
        try Sys.setOption(fd, level: SOL_SOCKET, name: SO_KEEPALIVE, value: 1)
        if keepaliveIdle > 0 { try Sys.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_KEEPIDLE, value: Int32(clamping: keepaliveIdle)) }
        if keepaliveInterval > 0 { try Sys.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_KEEPINTVL, value: Int32(clamping: keepaliveInterval)) }
        if keepaliveCount > 0 { try Sys.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_KEEPCNT, value: Int32(clamping: keepaliveCount)) }
    }
}
