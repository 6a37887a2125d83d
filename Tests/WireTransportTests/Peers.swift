import Dispatch
import Foundation
import Glibc
@testable import WireTransport

/// A numeric loopback address ("127.0.0.1" or "::1") and port, built without the resolver (so no
/// hosts file or AI_ADDRCONFIG decides whether it exists).
func loopback(_ literal: String, port: UInt16) -> SocketAddress {
    var storage = sockaddr_storage()
    let length: socklen_t
    if literal.contains(":") {
        var a = sockaddr_in6()
        a.sin6_family = sa_family_t(AF_INET6)
        a.sin6_port = port.bigEndian
        _ = inet_pton(AF_INET6, literal, &a.sin6_addr)
        withUnsafeMutableBytes(of: &storage) { dst in withUnsafeBytes(of: a) { dst.copyMemory(from: $0) } }
        length = socklen_t(MemoryLayout<sockaddr_in6>.size)
    } else {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, literal, &a.sin_addr)
        withUnsafeMutableBytes(of: &storage) { dst in withUnsafeBytes(of: a) { dst.copyMemory(from: $0) } }
        length = socklen_t(MemoryLayout<sockaddr_in>.size)
    }
    return SocketAddress(storage: storage, length: length)
}

/// A client whose host name resolves to exactly `addresses`, in that order.
func makeClient(_ parameters: Parameters, resolvingTo addresses: [SocketAddress],
                retry: RetryPolicy = RetryPolicy(initialDelay: 0.02, maximumDelay: 0.1)) -> (Connection, Recorder<ConnectionState>) {
    let port = addresses.first?.port ?? 0
    let connection = Connection(host: "dual-stack.test", port: port, using: parameters, resolver: { _, _, _ in addresses })
    connection.retryPolicy = retry
    let states = Recorder<ConnectionState>()
    connection.stateUpdateHandler = { states.append($0) }
    connection.start(queue: DispatchQueue(label: "test.client"))
    return (connection, states)
}

/// A loopback port whose SYNs go unanswered: a listener with backlog 0 whose one queue slot is
/// taken by a connection nobody accepts, so the kernel drops every further SYN (the client keeps
/// retransmitting, as with a blackholed route). Owns its two sockets and closes them in `close()`.
final class SilentSYNPort: @unchecked Sendable {
    let port: UInt16
    private let listening: SocketHandle
    private let filler: SocketHandle

    init() throws {
        let (listening, port) = try Self.listenWithBacklogZero()
        self.listening = listening
        self.port = port
        filler = try Self.connectAndWait(port: port)
    }

    private static func listenWithBacklogZero() throws -> (SocketHandle, UInt16) {
        let socket = SocketHandle(taking: try Sys.socket(domain: AF_INET, type: Sys.stream))
        let address = loopback("127.0.0.1", port: 0)
        let port = try socket.withDescriptor { fd throws(SystemError) -> UInt16 in
            try Sys.bind(fd, address)
            try Sys.listen(fd, backlog: 0)
            return try Sys.localAddress(fd).port
        }
        return (socket, port)
    }

    /// Connects to the port and waits (bounded) until the handshake is done, so the listener's one
    /// queue slot is taken.
    private static func connectAndWait(port: UInt16) throws -> SocketHandle {
        let socket = SocketHandle(taking: try Sys.socket(domain: AF_INET, type: Sys.stream))
        let target = loopback("127.0.0.1", port: port)
        let rc = try socket.withDescriptor { fd throws(SystemError) -> Int32 in
            target.withSockAddr { Glibc.connect(fd, $0, $1) }
        }
        if rc != 0 {
            try socket.withDescriptor { fd throws(SystemError) in
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, 2_000)
            }
        }
        return socket
    }

    func close() {
        filler.close()
        listening.close()
    }
}

/// A plain TCP server on loopback that accepts connections and never reads or writes: the peer
/// that accepts TCP and never speaks (never answers a ClientHello). Accepted sockets are kept
/// until `close()`.
final class MutePeer: @unchecked Sendable {
    let server: TestServer
    var port: UInt16 { server.port }

    init() throws { server = try TestServer(.tcp) }

    func close() { server.stop() }
}

/// A raw loopback TCP listener for peers the transport has no API to be: it accepts, and can reset
/// an accepted connection (SO_LINGER {1, 0} then close, so the kernel sends RST, not FIN).
/// Owns its sockets; `close()` closes every one.
final class RawListener: @unchecked Sendable {
    let port: UInt16
    private let listening: SocketHandle
    private var accepted: [SocketHandle] = []

    init() throws {
        let socket = SocketHandle(taking: try Sys.socket(domain: AF_INET, type: Sys.stream))
        let address = loopback("127.0.0.1", port: 0)
        port = try socket.withDescriptor { fd throws(SystemError) -> UInt16 in
            try Sys.bind(fd, address)
            try Sys.listen(fd, backlog: 16)
            return try Sys.localAddress(fd).port
        }
        listening = socket
    }

    /// Waits (at most 5 s) for one connection and accepts it; nil if none came.
    func acceptOne() throws -> SocketHandle? {
        let ready = try listening.withDescriptor { fd throws(SystemError) -> Bool in
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&p, 1, 5_000) == 1
        }
        guard ready else { return nil }
        let (fd, _) = try listening.withDescriptor { fd throws(SystemError) in try Sys.accept(fd) }
        let handle = SocketHandle(taking: fd)
        accepted.append(handle)
        return handle
    }

    /// Sends RST on `socket` by closing it with a zero linger.
    func reset(_ socket: SocketHandle) throws {
        try socket.withDescriptor { fd throws(SystemError) in try Sys.setLingerZero(fd) }
        socket.close()
    }

    func close() {
        for socket in accepted { socket.close() }
        listening.close()
    }
}
