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

    public init(connectionTimeout: Double? = 30, connectionAttemptDelay: Double = 0.25) {
        self.connectionTimeout = connectionTimeout
        self.connectionAttemptDelay = connectionAttemptDelay
    }
}
