import CWireTransport
import Dispatch
import Foundation
import Glibc

/// One immutable connection stage (see `Connection.stageBox`).
final class StageBox: Sendable {
    let value: ConnectionStage
    init(_ value: ConnectionStage) { self.value = value }
}

/// A TCP, TLS or UDP connection with Network.framework's completion-handler shape.
///
/// Threading: every mutable property below is touched only on `queue`, the connection's private
/// serial queue (hence `@unchecked Sendable`); public setters and calls hop onto it. Every callback
/// (state handler, send and receive completions) runs on the queue passed to `start(queue:)`, in
/// the order the events happened.
///
/// Ownership: the socket (and the TLS session) of each attempt belong to one `IOChannel`, closed on
/// every path out of an attempt and at teardown. Nothing inside retains the connection across
/// callbacks (sources and timers hold it weakly); pending completions are held until they run or
/// the connection ends, then released.
public final class Connection: @unchecked Sendable {
    public let host: String
    public let port: UInt16
    public let parameters: Parameters

    enum Origin {
        case outbound
        case accepted(TLSContext?)
        case udpChild(UDPPeerTable, SocketAddress)
    }
    struct PendingSend { var bytes: [UInt8]; var offset: Int; let completion: (@Sendable (WireError?) -> Void)?; var isFinal: Bool }
    struct PendingReceive {
        let minimum: Int
        let maximum: Int
        let completion: @Sendable (Data?, Bool, WireError?) -> Void
    }

    let queue: DispatchQueue
    let origin: Origin
    var userQueue: DispatchQueue?
    /// The one state machine (see `ConnectionStage`); `state` is its public face. Replaced whole
    /// on every transition, on `queue` only.
    var stage: ConnectionStage {
        get { stageBox.value }
        set { stageBox = StageBox(newValue) }
    }
    /// The stage behind a reference, so that ThreadSanitizer sees every transition: assigning the
    /// enum itself (its payloads hold strings) goes through an outlined copy that TSan does not
    /// instrument, and `currentState` read without `queue.sync` went unreported (docs/transport.md,
    /// "Thread safety").
    private var stageBox = StageBox(.setup)
    var state: ConnectionState { stage.state }
    var stateHandler: (@Sendable (ConnectionState) -> Void)?
    var channel: IOChannel?
    var tlsContext: TLSContext?
    var attempts = 0
    var retryTimer: DispatchWorkItem?
    /// A final message was queued: every later send is refused.
    var finalMessageQueued = false
    /// The connect attempt in flight (outbound connections only).
    var race: ConnectRace?
    /// The timeout of the stage in progress (connect, then TLS handshake).
    var deadline: DispatchWorkItem?
    var sends: [PendingSend] = []
    var receives: [PendingReceive] = []
    var inbound = ByteBuffer()
    var datagrams: [[UInt8]] = []
    var endOfStream = false
    var batchDepth = 0
    var peerAddress: SocketAddress?
    /// What the TLS handshake agreed on, recorded when the connection became ready.
    var negotiated: TLSMetadata?
    /// An accepted connection's socket until `start` hands it to its IOChannel (its one owner).
    var acceptedSocket: SocketHandle?
    var _retryPolicy = RetryPolicy()
    /// The path watcher and its handlers (Connection+Path.swift).
    var paths = ConnectionPathState()
    /// Called once when the connection reaches a terminal state or is released (listener bookkeeping).
    var terminationHook: (@Sendable () -> Void)?

    /// A UDP connection's receive space, made on first use.
    lazy var datagramBuffer = DatagramBuffer(count: Self.datagramBatch, size: Self.readChunk)
    /// A stream connection's receive space: one `readChunk` slot, made on first read and reused by
    /// every recv / SSL_read (before, each read allocated and zeroed a fresh 64 KiB array).
    lazy var readBuffer = DatagramBuffer(count: 1, size: Self.readChunk)

    /// Bytes read per recv/SSL_read call; datagrams per recvmmsg call.
    static let readChunk = 65536
    /// Stream bytes read without a pending receive stop once this many are buffered (at most
    /// `readAhead + readChunk` are held); the read is then disarmed until a receive takes some.
    static let readAhead = 65536
    static let datagramBatch = 16

    /// Turns the host into addresses, in the resolver's order (getaddrinfo outside tests).
    let resolver: AddressResolver
    /// Set once, by `init(to:using:)`: the service each attempt resolves first (then `host` is its
    /// name and `port` 0). See ConnectionServiceResolution.swift.
    var serviceEndpoint: (any ServiceEndpoint)?
    /// The resolution in flight (preparing(resolvingService) only); cancelled on every way out.
    var serviceResolution: (any ServiceResolution)?
    /// The SRV target the last resolution answered (no trailing dot): TLS's default verify name.
    var serviceTarget: String?

    /// A connection to `host`:`port`; nothing happens until `start(queue:)`.
    public convenience init(host: String, port: UInt16, using parameters: Parameters) {
        self.init(host: host, port: port, using: parameters, resolver: SocketAddress.resolve)
    }

    /// A connection whose addresses come from `resolver` (tests pin the resolver's order with it).
    init(host: String, port: UInt16, using parameters: Parameters, resolver: @escaping AddressResolver) {
        self.host = host
        self.port = port
        self.parameters = parameters
        self.origin = .outbound
        self.resolver = resolver
        self.queue = DispatchQueue(label: "wire.connection.\(host):\(port)")
    }

    /// A connection accepted by a listener (takes ownership of `socket`).
    init(accepted socket: SocketHandle, peer: SocketAddress, parameters: Parameters, tlsContext: TLSContext?,
         onTermination: @escaping @Sendable () -> Void) {
        self.host = peer.host
        self.port = peer.port
        self.parameters = parameters
        self.origin = .accepted(tlsContext)
        self.resolver = SocketAddress.resolve
        self.acceptedSocket = socket
        self.peerAddress = peer
        self.terminationHook = onTermination
        self.queue = DispatchQueue(label: "wire.accepted.\(peer)")
    }

    /// A UDP listener's per-peer connection: datagrams from `peer` arrive through `table`.
    init(udpPeer peer: SocketAddress, table: UDPPeerTable, onTermination: @escaping @Sendable () -> Void) {
        self.host = peer.host
        self.port = peer.port
        self.parameters = .udp
        self.origin = .udpChild(table, peer)
        self.resolver = SocketAddress.resolve
        self.peerAddress = peer
        self.terminationHook = onTermination
        self.queue = DispatchQueue(label: "wire.udp-peer.\(peer)")
    }

    deinit {
        // Nobody references the connection any more; release what it still owns on its queue
        // (a source event may be running there and reads the channel's handlers).
        if let channel { queue.async { channel.close() } }
        if let acceptedSocket { queue.async { acceptedSocket.close() } }
        serviceResolution?.cancel()
        if let watcher = paths.watcher { queue.async { watcher.cancel() } }
        terminationHook?()
    }

    // MARK: public API

    /// Called on the start queue with every new state; `cancelled` is its last call. A handler set
    /// once the connection is cancelled is dropped: it could never be called, and kept it would hold
    /// whatever it captures (usually the connection itself) for ever.
    public var stateUpdateHandler: (@Sendable (ConnectionState) -> Void)? {
        get { queue.sync { stateHandler } }
        set { queue.sync { stateHandler = state == .cancelled ? nil : newValue } }
    }

    /// The current state (as last reported to the state handler, or about to be).
    public var currentState: ConnectionState { queue.sync { state } }

    /// The peer's address once connected (or the accepting side's view of its peer).
    public var remoteAddress: SocketAddress? { queue.sync { peerAddress } }

    /// The negotiated TLS version, cipher suite and ALPN protocol once ready (nil for TCP, UDP,
    /// or before the handshake finished).
    public var tlsMetadata: TLSMetadata? { queue.sync { negotiated } }

    public var retryPolicy: RetryPolicy {
        get { queue.sync { _retryPolicy } }
        set { queue.sync { _retryPolicy = newValue } }
    }

    /// Starts connecting (or, for an accepted connection, the TLS handshake); callbacks run on `queue`.
    public func start(queue userQueue: DispatchQueue) {
        queue.async {
            guard case .setup = self.state else { return }
            self.userQueue = userQueue
            self.apply(.start)
            self.beginAttempt()
        }
    }

    /// Cancels the connection: pending sends and receives complete with `.cancelled`, the socket
    /// is closed, and the state handler sees `cancelled` (its last call).
    public func cancel() {
        queue.async { self.apply(.cancel) }
    }

    /// Queues `content` for sending; `completion` runs once the kernel has taken every byte (for
    /// TLS: OpenSSL has written the records), so sending the next chunk from it paces the sender.
    /// On UDP each call is one datagram.
    public func send(content: Data, completion: (@Sendable (WireError?) -> Void)? = nil) {
        let bytes = [UInt8](content)
        queue.async { self.enqueueSend(bytes, completion) }
    }

    /// `send(content:completion:)` for a byte array (no `Data` copy).
    public func send(bytes: [UInt8], completion: (@Sendable (WireError?) -> Void)? = nil) {
        queue.async { self.enqueueSend(bytes, completion) }
    }

    /// What a send means for the stream (NWConnection.ContentContext's two common values).
    public enum ContentContext: Sendable {
        /// Bytes of the stream; more may follow.
        case defaultMessage
        /// The last bytes this side sends: once they are written, the write side is closed (TLS:
        /// close_notify, then TCP: shutdown(SHUT_WR)), so the peer's last receive gets `isComplete`.
        /// This side keeps receiving until the peer closes too. A later send fails with
        /// `invalidArgument`. On UDP it is an ordinary datagram (UDP has no write side to close).
        case finalMessage
    }

    /// Sends `content` (may be nil with `.finalMessage`: only close the write side). `completion`
    /// runs once the bytes are taken and, for a final message, the write side is closed.
    public func send(content: Data?, contentContext: ContentContext, completion: (@Sendable (WireError?) -> Void)? = nil) {
        let bytes = content.map { [UInt8]($0) } ?? []
        queue.async { self.enqueueSend(bytes, completion, isFinal: contentContext == .finalMessage) }
    }

    /// Delivers between `minimumIncompleteLength` and `maximumLength` bytes (TCP/TLS; exactly n for
    /// min == max == n, however the peer split its writes). `isComplete` is true once the peer closed
    /// its side and every byte was delivered; a receive at end of stream gets `(nil, true, nil)`. On
    /// UDP each receive delivers one whole datagram (`isComplete` true).
    public func receive(minimumIncompleteLength: Int, maximumLength: Int,
                        completion: @escaping @Sendable (Data?, Bool, WireError?) -> Void) {
        let request = PendingReceive(minimum: max(0, minimumIncompleteLength), maximum: max(1, maximumLength), completion: completion)
        queue.async {
            guard !self.state.isTerminal else { return self.deliver(request.completion, nil, false, self.terminalError) }
            self.receives.append(request)
            if self.stage == .ready { self.service() }
        }
    }

    /// UDP: every send issued inside `body` (from the calling thread) leaves in one `sendmmsg` call
    /// when the block ends (in chunks of 1,024 datagrams). TCP/TLS: sends are coalesced the same way.
    public func batch(_ body: () -> Void) {
        queue.async { self.batchDepth += 1 }
        body()
        queue.async {
            self.batchDepth -= 1
            if self.batchDepth == 0 && self.stage == .ready { self.service() }
        }
    }

    // MARK: state

    var terminalError: WireError {
        if case .failed(let e) = state { return e }
        return .cancelled
    }

    /// Applies `event` through the transition function, reports the new state, tears down on a
    /// terminal one. On `queue`.
    func apply(_ event: ConnectionEvent) {
        guard let next = stage.applying(event, firstStep: serviceEndpoint == nil ? .connecting : .resolvingService) else { return }
        let previous = stage
        stage = next
        let reported = next.state
        if reported != previous.state, let handler = stateHandler, let userQueue { userQueue.async { handler(reported) } }
        switch next {
        case .failed(let e): teardown(e, wasReady: previous == .ready)
        case .cancelled:
            teardown(.cancelled, wasReady: previous == .ready)
            stateHandler = nil  // its last call is queued above; break any cycle through it
            stopWatchingPath(dropHandlers: true)
        default: break
        }
    }

    /// Closes everything and fails what is pending with `error`; a connection that was ready
    /// first sends TLS close_notify.
    func teardown(_ error: WireError, wasReady: Bool) {
        retryTimer?.cancel()
        retryTimer = nil
        disarmDeadline()
        stopWatchingPath(dropHandlers: false)
        race?.cancel()
        race = nil
        serviceResolution?.cancel()
        serviceResolution = nil
        if let channel {
            if wasReady, let tls = channel.tls { tls.shutdown() }
            channel.close()
        }
        channel = nil
        acceptedSocket?.close()  // accepted but never started
        acceptedSocket = nil
        let pendingSends = sends, pendingReceives = receives
        sends = []
        receives = []
        for s in pendingSends { if let c = s.completion { deliverSend(c, error) } }
        for r in pendingReceives { deliver(r.completion, nil, false, error) }
        if let hook = terminationHook { terminationHook = nil; hook() }
    }

    func deliver(_ completion: @escaping @Sendable (Data?, Bool, WireError?) -> Void, _ data: Data?, _ complete: Bool, _ error: WireError?) {
        (userQueue ?? .global()).async { completion(data, complete, error) }
    }

    func deliverSend(_ completion: @escaping @Sendable (WireError?) -> Void, _ error: WireError?) {
        (userQueue ?? .global()).async { completion(error) }
    }
}
