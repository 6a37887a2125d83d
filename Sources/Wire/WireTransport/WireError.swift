import Glibc

/// Every error the transport reports. One enum for the layer; each case says what failed and why.
public enum WireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed: the call's name and errno.
    case posix(call: String, errno: Int32)
    /// The host name did not resolve (getaddrinfo's message).
    case resolution(host: String, reason: String)
    /// TLS setup, handshake or verification failed; `reason` names the certificate problem when
    /// verification failed (e.g. "certificate verify failed: unable to get local issuer certificate").
    case tls(reason: String)
    /// A parameter the caller passed cannot work (e.g. a TLS listener without a key).
    case invalidArgument(String)
    /// The operation was issued on a connection that is cancelled or failed.
    case notConnected
    /// The connection was cancelled before the operation completed.
    case cancelled
    /// A UDP receive got a datagram longer than `maximumLength`; it was dropped.
    case datagramTruncated(length: Int)
    /// A stage of establishing the connection took longer than its configured timeout.
    case timedOut(TimedStage, seconds: Double)
    /// A service endpoint (`Connection(to:using:)`) did not resolve to an address: it has gone
    /// away, did not answer in time, or the daemon that resolves it is unreachable. Recoverable:
    /// the connection waits and resolves again under its `RetryPolicy`.
    case serviceResolution(service: String, reason: String)
    /// The kernel has no usable route to the peer (none, or a blackhole / unreachable / prohibit
    /// route); `reason` says which, per address. A connection waits for the path to come back.
    case pathUnsatisfied(reason: String)

    /// The stages of establishing a connection that have a timeout.
    public enum TimedStage: String, Sendable, Hashable {
        /// TCP connect over every address of the host (`TCPOptions.connectionTimeout`).
        case connect = "connect"
        /// The TLS handshake, client or server side (`TLSOptions.handshakeTimeout`).
        case tlsHandshake = "TLS handshake"
    }

    public var description: String {
        switch self {
        case let .posix(call, errno): return "\(call): \(String(cString: strerror(errno))) (errno \(errno))"
        case let .resolution(host, reason): return "cannot resolve \(host): \(reason)"
        case let .tls(reason): return "TLS: \(reason)"
        case let .invalidArgument(what): return "invalid argument: \(what)"
        case .notConnected: return "not connected"
        case .cancelled: return "cancelled"
        case let .datagramTruncated(length): return "datagram longer than the receive's maximum (\(length) bytes)"
        case let .timedOut(stage, seconds): return "\(stage.rawValue) timed out after \(seconds) s"
        case let .serviceResolution(service, reason): return "cannot resolve service \(service): \(reason)"
        case let .pathUnsatisfied(reason): return "no usable path: \(reason)"
        }
    }

    /// Errors a connect attempt may recover from by retrying later (peer not listening yet,
    /// network temporarily unreachable).
    var isRecoverableConnectError: Bool {
        if case .timedOut(.connect, _) = self { return true }
        if case .serviceResolution = self { return true }
        if case .pathUnsatisfied = self { return true }
        guard case let .posix(_, e) = self else { return false }
        return [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ETIMEDOUT, ENETDOWN, EHOSTDOWN, ECONNRESET, EADDRNOTAVAIL].contains(e)
    }
}
