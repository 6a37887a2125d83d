import CWireTransport
import Dispatch
import Foundation
import Glibc

/// Accepts TCP, TLS or UDP peers with Network.framework's NWListener shape.
///
/// - `port` is the port actually bound (useful with port 0) once the state is `ready`.
/// - `connectionLimit`: while that many accepted connections are alive (not yet failed, cancelled
///   or released), further TCP/TLS peers are accepted and immediately reset (SO_LINGER 0) and UDP
///   datagrams from new peers dropped; each counts in `refusedCount`.
/// - `validationHandler` runs on the start queue with the peer's address before the connection is
///   handed to `newConnectionHandler` and before any of its bytes are read (for TLS: before the
///   handshake). Returning false closes it and counts it in `rejectedCount`.
/// - A new connection is delivered unstarted; the handler calls `start(queue:)` on it (a TLS
///   connection then runs its server handshake). Without a handler, connections are cancelled.
///
/// Threading and ownership as for `Connection`: state confined to a private serial queue; the
/// listening socket belongs to one `IOChannel`; accepted descriptors belong to their connection.
public final class Listener: @unchecked Sendable {
    public let parameters: Parameters
    public let host: String
    public let requestedPort: UInt16

    let queue: DispatchQueue
    private var lifecycle = Lifecycle<ListenerState>()
    private var connectionHandler: (@Sendable (Connection) -> Void)?
    private var validation: (@Sendable (SocketAddress) -> Bool)?
    private var channel: IOChannel?
    private let tlsContext: TLSContext?
    private var boundPort: UInt16?
    private var limit: Int?
    private var active = 0
    private var refused = 0
    private var rejected = 0
    private var acceptedTotal = 0
    private var udpTable: UDPPeerTable?
    private var acceptPaused = false
    /// A UDP listener's receive space, made on first use.
    private lazy var datagramBuffer = DatagramBuffer(count: Connection.datagramBatch, size: Connection.readChunk)

    /// Accepts per readable event, so one busy listener cannot starve its queue.
    static let acceptsPerEvent = 256

    /// A listener on `host` (default loopback) and `port` (0: any free port). For TLS the server
    /// certificate and key are loaded here, so a bad file fails at once with a clear error.
    public init(using parameters: Parameters, host: String = "127.0.0.1", port: UInt16 = 0) throws(WireError) {
        self.parameters = parameters
        self.host = host
        self.requestedPort = port
        if let options = parameters.tls {
            tlsContext = try TLSContext(options: options, server: true)
        } else {
            tlsContext = nil
        }
        queue = DispatchQueue(label: "wire.listener.\(host):\(port)")
    }

    deinit {
        if let channel { queue.async { channel.close() } }
    }

    // Handlers set once the listener is cancelled are dropped, as cancelling drops the ones it had:
    // they could never be called, and kept they would hold what they capture for ever.
    public var stateUpdateHandler: (@Sendable (ListenerState) -> Void)? {
        get { queue.sync { lifecycle.stateUpdateHandler } }
        set { queue.sync { lifecycle.stateUpdateHandler = newValue } }
    }
    public var newConnectionHandler: (@Sendable (Connection) -> Void)? {
        get { queue.sync { connectionHandler } }
        set { queue.sync { connectionHandler = lifecycle.state == .cancelled ? nil : newValue } }
    }
    public var validationHandler: (@Sendable (SocketAddress) -> Bool)? {
        get { queue.sync { validation } }
        set { queue.sync { validation = lifecycle.state == .cancelled ? nil : newValue } }
    }
    public var connectionLimit: Int? {
        get { queue.sync { limit } }
        set { queue.sync { limit = newValue } }
    }
    /// The bound port once ready.
    public var port: UInt16? { queue.sync { boundPort } }
    /// Peers turned away by the connection limit.
    public var refusedCount: Int { queue.sync { refused } }
    /// Peers the validation handler refused.
    public var rejectedCount: Int { queue.sync { rejected } }
    /// Accepted connections not yet failed, cancelled or released.
    public var activeConnectionCount: Int { queue.sync { active } }
    /// Every connection accepted (refused ones not included).
    public var acceptedCount: Int { queue.sync { acceptedTotal } }
    public var currentState: ListenerState { queue.sync { lifecycle.state } }

    public func start(queue userQueue: DispatchQueue) {
        queue.async {
            guard self.lifecycle.start(on: userQueue) else { return }
            do throws(WireError) {
                try self.bindAndListen()
                self.move(to: .ready)
            } catch {
                self.move(to: .failed(error))
            }
        }
    }

    /// Stops accepting and closes the listening socket. Connections already accepted live on.
    public func cancel() {
        queue.async { self.move(to: .cancelled) }
    }

    /// Every state change, through the lifecycle's transition function; a failed or cancelled
    /// listener closes its socket, and a cancelled one drops its handlers.
    private func move(to next: ListenerState) {
        guard lifecycle.move(to: next) else { return }
        switch next {
        case .failed, .cancelled:
            channel?.close()
            channel = nil
            udpTable?.detach()
            if case .cancelled = next {
                connectionHandler = nil
                validation = nil
            }
        default: break
        }
    }

    private func bindAndListen() throws(WireError) {
        guard let address = try SocketAddress.resolve(host: host, port: requestedPort, datagram: parameters.isDatagram).first else {
            throw .resolution(host: host, reason: "no address")
        }
        let datagram = parameters.isDatagram
        let socket: SocketHandle
        do {
            socket = SocketHandle(taking: try Sys.socket(domain: address.family, type: Sys.socketType(datagram: datagram)))
        } catch { throw error.wireError }
        let channel = IOChannel(socket: socket, queue: queue)
        self.channel = channel  // from here the channel owns the socket, closed on every path by move(to:)
        let fd: Int32
        do { fd = try socket.withDescriptor { fd throws(SystemError) in fd } } catch { throw error.wireError }
        try parameters.applyLocalOptions(fd)
        do {
            try socket.withDescriptor { fd throws(SystemError) in
                try Sys.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
                try Sys.bind(fd, address)
                if !datagram { try Sys.listen(fd, backlog: 4096) }
                boundPort = try Sys.localAddress(fd).port
            }
        } catch { throw error.wireError }
        if datagram {
            let table = UDPPeerTable(channel: channel, queue: queue)
            udpTable = table
            channel.onReadable = { [weak self] in self?.readDatagrams() }
        } else {
            channel.onReadable = { [weak self] in self?.acceptPending() }
        }
        channel.armRead(true)
    }

    // MARK: TCP / TLS

    private func acceptPending() {
        guard let channel, lifecycle.state == .ready else { return }
        for _ in 0 ..< Self.acceptsPerEvent {
            let fd: Int32, peer: SocketAddress
            do {
                (fd, peer) = try channel.socket.withDescriptor { listenFD throws(SystemError) in try Sys.accept(listenFD) }
            } catch where error.wouldBlock {
                return
            } catch where error.errno == ECONNABORTED || error.errno == EPROTO {
                continue
            } catch where error.errno == EMFILE || error.errno == ENFILE || error.errno == ENOBUFS || error.errno == ENOMEM {
                // Out of descriptors: stop watching for a moment instead of spinning on a level-triggered source.
                pauseAccepting()
                return
            } catch {
                return move(to: .failed(error.wireError))
            }
            admit(SocketHandle(taking: fd), peer: peer)
        }
    }

    private func pauseAccepting() {
        guard !acceptPaused, let channel else { return }
        acceptPaused = true
        channel.armRead(false)
        queue.asyncAfter(deadline: .now() + 0.05) { [weak self] in
            guard let self, self.acceptPaused, let channel = self.channel else { return }
            self.acceptPaused = false
            channel.armRead(true)
        }
    }

    private func admit(_ socket: SocketHandle, peer: SocketAddress) {
        if let limit, active >= limit {
            refused += 1
            try? socket.withDescriptor { fd throws(SystemError) in try Sys.setLingerZero(fd) }
            socket.close()
            return
        }
        active += 1
        acceptedTotal += 1
        let connection = Connection(accepted: socket, peer: peer, parameters: parameters, tlsContext: tlsContext,
                                    onTermination: terminationHook(peer: nil))
        hand(connection, peer: peer)
    }

    private func terminationHook(peer: SocketAddress?) -> @Sendable () -> Void {
        { [weak self] in
            guard let self else { return }
            self.queue.async {
                self.active -= 1
                if let peer { self.udpTable?.remove(peer) }
            }
        }
    }

    /// Validation, then the new-connection handler, on the user's queue; the connection reads
    /// nothing before its handler starts it.
    private func hand(_ connection: Connection, peer: SocketAddress) {
        let validate = validation, handler = connectionHandler
        (lifecycle.queue ?? .global()).async { [weak self] in
            if let validate, !validate(peer) {
                connection.cancel()
                if let self { self.queue.async { self.rejected += 1 } }
                return
            }
            if let handler { handler(connection) } else { connection.cancel() }
        }
    }

    // MARK: UDP

    private func readDatagrams() {
        guard let channel, let table = udpTable, lifecycle.state == .ready else { return }
        let batch = Connection.datagramBatch
        for _ in 0 ..< 16 {
            let got: [Sys.Datagram]
            do {
                got = try channel.socket.withDescriptor { fd throws(SystemError) in
                    try Sys.recvmmsg(fd, into: datagramBuffer, size: Connection.readChunk)
                }
            } catch where error.wouldBlock {
                return
            } catch {
                continue  // ICMP errors on an unconnected socket concern one earlier send; keep reading
            }
            for received in got {
                let peer = received.source
                let datagram = received.bytes
                if let existing = table.connection(for: peer) {
                    existing.enqueueDatagram(datagram)
                    continue
                }
                if let limit, active >= limit {
                    refused += 1
                    continue
                }
                active += 1
                acceptedTotal += 1
                let connection = Connection(udpPeer: peer, table: table, onTermination: terminationHook(peer: peer))
                table.register(connection, for: peer)
                connection.enqueueDatagram(datagram)
                hand(connection, peer: peer)
            }
            if got.count < batch { return }
        }
    }
}

/// A UDP listener's socket shared by its per-peer connections: demultiplexes by source address
/// and sends on their behalf. Confined to the listener's queue; the socket stays owned by the
/// listener's `IOChannel` (the table only borrows it until `detach()`).
final class UDPPeerTable: @unchecked Sendable {
    private var channel: IOChannel?
    private let queue: DispatchQueue
    private var peers: [SocketAddress: WeakConnection] = [:]

    private struct WeakConnection { weak var connection: Connection? }

    init(channel: IOChannel, queue: DispatchQueue) {
        self.channel = channel
        self.queue = queue
    }

    func connection(for peer: SocketAddress) -> Connection? { peers[peer]?.connection }
    func register(_ connection: Connection, for peer: SocketAddress) { peers[peer] = WeakConnection(connection: connection) }
    func remove(_ peer: SocketAddress) { peers[peer] = nil }
    func detach() { channel = nil }

    /// sendto on the listener's queue; `completion` runs there.
    func send(_ bytes: [UInt8], to peer: SocketAddress, completion: @escaping @Sendable (WireError?) -> Void) {
        queue.async {
            guard let channel = self.channel, !channel.isClosed else { return completion(.notConnected) }
            do throws(SystemError) {
                _ = try channel.socket.withDescriptor { fd throws(SystemError) in try Sys.sendto(fd, bytes, peer) }
                completion(nil)
            } catch {
                completion(error.wireError)
            }
        }
    }
}
