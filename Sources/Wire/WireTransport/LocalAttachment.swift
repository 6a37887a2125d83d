import Glibc

/// A local address to bind to: a numeric host ("127.0.0.2", "::1", "0.0.0.0" for any IPv4
/// address) and a port (0: any).
public struct LocalEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16 = 0) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The endpoint as socket addresses (a numeric host only: binding never waits on DNS).
    func addresses(datagram: Bool) throws(WireError) -> [SocketAddress] {
        do {
            return try SocketAddress.resolveNumeric(host: host, port: port, datagram: datagram)
        } catch {
            throw .invalidArgument("requiredLocalEndpoint \(self): not a numeric IPv4 or IPv6 address")
        }
    }
}

extension Parameters {
    /// Address reuse and the interface, on a fresh socket of a connection or a listener, before it
    /// binds or connects. Throws `posix` naming the option when the kernel refuses it.
    func applyLocalOptions(_ fd: Int32) throws(WireError) {
        do {
            if allowLocalEndpointReuse {
                try Sys.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
                try Sys.setOption(fd, level: SOL_SOCKET, name: SO_REUSEPORT, value: 1)
            }
            if let name = requiredInterfaceName { try Sys.bindToDevice(fd, name) }
        } catch { throw error.wireError }
    }

    /// Binds an outgoing socket of `family` to `requiredLocalEndpoint`, resolved beforehand into
    /// `localAddresses`; does nothing without one. Throws `invalidArgument` when the endpoint has no
    /// address of `family` (the caller moves on to the next remote address), `posix` when bind fails.
    func bindLocalEndpoint(_ fd: Int32, family: Int32, localAddresses: [SocketAddress]) throws(WireError) {
        guard let endpoint = requiredLocalEndpoint else { return }
        guard let local = localAddresses.first(where: { $0.family == family }) else {
            throw .invalidArgument("requiredLocalEndpoint \(endpoint) has no \(family == AF_INET6 ? "IPv6" : "IPv4") address for an \(family == AF_INET6 ? "IPv6" : "IPv4") remote address")
        }
        do { try Sys.bind(fd, local, purpose: "requiredLocalEndpoint \(endpoint)") } catch { throw error.wireError }
    }
}
