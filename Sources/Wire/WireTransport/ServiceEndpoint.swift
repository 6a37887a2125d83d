import Glibc

/// An endpoint named by a service rather than a host and port (the role of Network.framework's
/// `NWEndpoint.service`): a DNS-SD service instance, resolved by WireDiscovery, which conforms its
/// `BrowseResult` to this protocol. The transport knows nothing about DNS-SD: a connection made with
/// `Connection(to:using:)` asks the endpoint for addresses at the start of every attempt, while
/// preparing, and then connects to them as it would to a host's addresses.
public protocol ServiceEndpoint: Sendable {
    /// The service's full name, e.g. `room._rtm._tcp.local.`: the connection's `host`, and the
    /// name a `WireError.serviceResolution` carries.
    var serviceName: String { get }

    /// Starts one resolution. `completion` is called at most once, on any thread: the service's
    /// target host and its addresses, or a `WireError` (a failure to resolve should be
    /// `.serviceResolution`, which the connection treats as recoverable: it waits and tries again).
    ///
    /// The returned handle belongs to the caller. After its `cancel()` the resolution must release
    /// what it holds (threads, descriptors, daemon requests) within a bounded time; a completion
    /// already on its way may still arrive and is ignored by the connection.
    func resolve(completion: @escaping @Sendable (Result<ResolvedServiceEndpoint, WireError>) -> Void) -> any ServiceResolution
}

/// A resolution in flight, owned by the one who started it.
public protocol ServiceResolution: Sendable {
    /// Stops the resolution; idempotent.
    func cancel()
}

/// Where a service lives, as one resolution found it.
public struct ResolvedServiceEndpoint: Sendable, Hashable {
    /// The SRV record's target host (e.g. `host.local.`). A TLS connection without
    /// `TLSOptions.serverName` verifies the peer's certificate against this name (its trailing dot
    /// removed).
    public var targetHost: String
    /// The addresses to connect to, port included, in the order to try them.
    public var addresses: [SocketAddress]

    public init(targetHost: String, addresses: [SocketAddress]) {
        self.targetHost = targetHost
        self.addresses = addresses
    }
}

extension SocketAddress {
    /// The address of a numeric host ("10.0.0.2", "fe80::1%3": an IPv6 scope as an interface
    /// index or name) and a port; never a name lookup. Throws `.resolution` for anything else.
    public init(numericHost: String, port: UInt16) throws(WireError) {
        guard let first = try Self.resolveNumeric(host: numericHost, port: port, datagram: false).first else {
            throw .resolution(host: numericHost, reason: "no address")
        }
        self = first
    }
}
