import CWireTransport
import Dispatch
import Foundation
import Glibc

/// How a connection retries a refused or unreachable peer: delays double from `initialDelay` up to
/// `maximumDelay`; after `maximumAttempts` failed attempts (nil: never) the connection fails.
public struct RetryPolicy: Sendable, Hashable {
    public var initialDelay: Double
    public var maximumDelay: Double
    public var maximumAttempts: Int?

    public init(initialDelay: Double = 0.1, maximumDelay: Double = 5, maximumAttempts: Int? = nil) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    func delay(afterAttempt attempt: Int) -> Double {
        min(maximumDelay, initialDelay * pow(2, Double(max(0, attempt - 1))))
    }
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

    private enum Origin {
        case outbound
        case accepted(TLSContext?)
        case udpChild(UDPPeerTable, SocketAddress)
    }
    private enum Phase { case idle, connecting, handshaking, open, closed }
    private struct PendingSend { var bytes: [UInt8]; var offset: Int; let completion: (@Sendable (WireError?) -> Void)? }
    private struct PendingReceive {
        let minimum: Int
        let maximum: Int
        let completion: @Sendable (Data?, Bool, WireError?) -> Void
    }

    let queue: DispatchQueue
    private let origin: Origin
    private var userQueue: DispatchQueue?
    private var state = ConnectionState.setup
    private var phase = Phase.idle
    private var stateHandler: (@Sendable (ConnectionState) -> Void)?
    private var channel: IOChannel?
    private var tlsContext: TLSContext?
    private var attempts = 0
    private var retryTimer: DispatchWorkItem?
    /// The connect attempt in flight (outbound connections only).
    private var race: ConnectRace?
    /// The timeout of the stage in progress (connect, then TLS handshake).
    private var deadline: DispatchWorkItem?
    private var sends: [PendingSend] = []
    private var receives: [PendingReceive] = []
    private var inbound = ByteBuffer()
    private var datagrams: [[UInt8]] = []
    private var endOfStream = false
    private var batchDepth = 0
    private var peerAddress: SocketAddress?
    /// An accepted connection's socket until `start` hands it to its IOChannel (its one owner).
    private var acceptedSocket: SocketHandle?
    private var _retryPolicy = RetryPolicy()
    /// Called once when the connection reaches a terminal state or is released (listener bookkeeping).
    private var terminationHook: (@Sendable () -> Void)?

    /// A UDP connection's receive space, made on first use.
    private lazy var datagramBuffer = DatagramBuffer(count: Self.datagramBatch, size: Self.readChunk)

    /// Bytes read per recv/SSL_read call; datagrams per recvmmsg call.
    static let readChunk = 65536
    /// Stream bytes read without a pending receive stop once this many are buffered (at most
    /// `readAhead + readChunk` are held); the read is then disarmed until a receive takes some.
    static let readAhead = 65536
    static let datagramBatch = 16

    /// Turns the host into addresses, in the resolver's order (getaddrinfo outside tests).
    let resolver: AddressResolver

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
        terminationHook?()
    }

    // MARK: public API

    public var stateUpdateHandler: (@Sendable (ConnectionState) -> Void)? {
        get { queue.sync { stateHandler } }
        set { queue.sync { stateHandler = newValue } }
    }

    /// The current state (as last reported to the state handler, or about to be).
    public var currentState: ConnectionState { queue.sync { state } }

    /// The peer's address once connected (or the accepting side's view of its peer).
    public var remoteAddress: SocketAddress? { queue.sync { peerAddress } }

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
            if self.phase == .open { self.service() }
        }
    }

    /// UDP: every send issued inside `body` (from the calling thread) leaves in one `sendmmsg` call
    /// when the block ends (in chunks of 1,024 datagrams). TCP/TLS: sends are coalesced the same way.
    public func batch(_ body: () -> Void) {
        queue.async { self.batchDepth += 1 }
        body()
        queue.async {
            self.batchDepth -= 1
            if self.batchDepth == 0 && self.phase == .open { self.service() }
        }
    }

    // MARK: state

    private var terminalError: WireError {
        if case .failed(let e) = state { return e }
        return .cancelled
    }

    /// Applies `event` through the transition function, reports the new state, tears down on a
    /// terminal one. On `queue`.
    private func apply(_ event: ConnectionEvent) {
        guard let next = state.applying(event) else { return }
        state = next
        if let handler = stateHandler, let userQueue { userQueue.async { handler(next) } }
        switch next {
        case .failed(let e): teardown(e)
        case .cancelled:
            teardown(.cancelled)
            stateHandler = nil  // its last call is queued above; break any cycle through it
        default: break
        }
    }

    private func teardown(_ error: WireError) {
        retryTimer?.cancel()
        retryTimer = nil
        disarmDeadline()
        race?.cancel()
        race = nil
        if let channel {
            if phase == .open, let tls = channel.tls { tls.shutdown() }
            channel.close()
        }
        channel = nil
        acceptedSocket?.close()  // accepted but never started
        acceptedSocket = nil
        phase = .closed
        let pendingSends = sends, pendingReceives = receives
        sends = []
        receives = []
        for s in pendingSends { if let c = s.completion { deliverSend(c, error) } }
        for r in pendingReceives { deliver(r.completion, nil, false, error) }
        if let hook = terminationHook { terminationHook = nil; hook() }
    }

    private func deliver(_ completion: @escaping @Sendable (Data?, Bool, WireError?) -> Void, _ data: Data?, _ complete: Bool, _ error: WireError?) {
        (userQueue ?? .global()).async { completion(data, complete, error) }
    }

    private func deliverSend(_ completion: @escaping @Sendable (WireError?) -> Void, _ error: WireError?) {
        (userQueue ?? .global()).async { completion(error) }
    }

    // MARK: connecting

    private func beginAttempt() {
        attempts += 1
        phase = .connecting
        switch origin {
        case .accepted(let context):
            guard let socket = acceptedSocket else { return apply(.fatalFailure(.notConnected)) }
            acceptedSocket = nil
            tlsContext = context
            let channel = IOChannel(socket: socket, queue: queue)
            install(channel)
            connected()
        case .udpChild:
            phase = .open
            apply(.established)
            service()  // datagrams and receives queued before start (the listener feeds them early)
        case .outbound:
            connectOutbound()
        }
    }

    /// Resolves, then races connects over every address (`ConnectRace`) under the connection
    /// timeout; the winner's channel becomes the connection's.
    private func connectOutbound() {
        let addresses: [SocketAddress]
        do {
            addresses = try resolver(host, port, parameters.isDatagram)
            guard !addresses.isEmpty else { return apply(.fatalFailure(.resolution(host: host, reason: "no address"))) }
            if let options = parameters.tls, tlsContext == nil {
                tlsContext = try TLSContext(options: options, server: false)
            }
        } catch {
            return apply(.fatalFailure(error))
        }
        let race = ConnectRace(addresses: addresses, datagram: parameters.isDatagram,
                               attemptDelay: parameters.tcp.connectionAttemptDelay, queue: queue) { [weak self] outcome in
            self?.raceFinished(outcome)
        }
        self.race = race
        if let limit = parameters.tcp.connectionTimeout {
            arm(deadline: limit) { [weak self] in
                guard let self, let race = self.race else { return }
                race.cancel()
                self.race = nil
                self.attemptFailed(.timedOut(.connect, seconds: limit))
            }
        }
        race.start()
    }

    private func raceFinished(_ outcome: ConnectRace.Outcome) {
        race = nil
        switch outcome {
        case .success(let winner):
            install(winner.channel)
            peerAddress = winner.address
            connected()
        case .failure(let error):
            attemptFailed(error)
        }
    }

    /// Runs `expired` on the queue after `seconds` unless disarmed first (by the next `arm`, by
    /// `disarmDeadline()`, or by teardown). One deadline at a time: connect, then handshake.
    private func arm(deadline seconds: Double, _ expired: @escaping () -> Void) {
        deadline?.cancel()
        let item = DispatchWorkItem { [weak self] in
            guard let self, self.deadline != nil else { return }
            self.deadline = nil
            expired()
        }
        deadline = item
        queue.asyncAfter(deadline: .now() + seconds, execute: item)
    }

    private func disarmDeadline() {
        deadline?.cancel()
        deadline = nil
    }

    private func install(_ channel: IOChannel) {
        self.channel = channel
        channel.onReadable = { [weak self] in self?.service() }
        channel.onWritable = { [weak self] in self?.service() }
    }

    /// One connect attempt failed: close its socket; wait and retry if the error is recoverable
    /// and attempts remain, fail otherwise.
    private func attemptFailed(_ error: WireError) {
        disarmDeadline()
        race?.cancel()
        race = nil
        channel?.close()
        channel = nil
        phase = .idle
        let policy = _retryPolicy
        guard error.isRecoverableConnectError, policy.maximumAttempts.map({ attempts < $0 }) ?? true else {
            return apply(.fatalFailure(error))
        }
        apply(.recoverableFailure(error))
        let timer = DispatchWorkItem { [weak self] in
            guard let self, case .waiting = self.state else { return }
            self.retryTimer = nil
            self.apply(.retry)
            self.beginAttempt()
        }
        retryTimer = timer
        queue.asyncAfter(deadline: .now() + policy.delay(afterAttempt: attempts), execute: timer)
    }

    /// TCP connected (or accepted, or UDP associated): start TLS or become ready.
    private func connected() {
        disarmDeadline()
        guard let channel else { return }
        if !parameters.isDatagram {
            try? channel.socket.withDescriptor { fd throws(SystemError) in try Sys.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1) }
        }
        guard let context = tlsContext else { return establish() }
        let isServer: Bool
        if case .accepted = origin { isServer = true } else { isServer = false }
        var verifyName: String?
        if let options = parameters.tls, options.verifyPeer, !isServer { verifyName = options.serverName ?? host }
        do {
            channel.tls = try channel.socket.withDescriptor { fd throws(SystemError) in
                do { return try TLSSession(context: context, fd: fd, server: isServer, verifyName: verifyName) }
                catch { throw SystemError(call: "TLS setup: \(error)", errno: EINVAL) }
            }
        } catch {
            return apply(.fatalFailure(.tls(reason: error.call)))
        }
        phase = .handshaking
        if let limit = parameters.tls?.handshakeTimeout {
            arm(deadline: limit) { [weak self] in self?.apply(.fatalFailure(.timedOut(.tlsHandshake, seconds: limit))) }
        }
        stepHandshake()
    }

    private func stepHandshake() {
        guard let channel, let tls = channel.tls else { return }
        switch tls.handshake() {
        case .done: establish()
        case .wantRead: channel.armWrite(false); channel.armRead(true)
        case .wantWrite: channel.armRead(false); channel.armWrite(true)
        case .closed: apply(.fatalFailure(.tls(reason: "handshake: the peer closed the connection")))
        case .failed(let e): apply(.fatalFailure(e))
        }
    }

    private func establish() {
        disarmDeadline()
        phase = .open
        channel?.armWrite(false)
        channel?.armRead(false)
        apply(.established)
        service()
    }

    // MARK: I/O

    /// Every source event and every new request lands here: moves bytes both ways as far as the
    /// socket allows, then arms exactly the sources still needed.
    private func service() {
        switch phase {
        case .connecting: return  // the race owns the sockets until one connects
        case .handshaking: return stepHandshake()
        case .idle, .closed: return
        case .open: break
        }
        let w = pumpWrites()
        guard phase == .open else { return }
        let r = pumpReads()
        guard phase == .open, let channel else { return }
        channel.armRead(w.read || r.read)
        channel.armWrite(w.write || r.write)
    }

    private func enqueueSend(_ bytes: [UInt8], _ completion: (@Sendable (WireError?) -> Void)?) {
        guard !state.isTerminal else {
            if let completion { deliverSend(completion, terminalError) }
            return
        }
        if case .udpChild(let table, let peer) = origin {
            // The listener's socket sends for its per-peer connections.
            let userQueue = self.userQueue ?? .global()
            table.send(bytes, to: peer) { error in if let completion { userQueue.async { completion(error) } } }
            return
        }
        sends.append(PendingSend(bytes: bytes, offset: 0, completion: completion))
        if phase == .open && batchDepth == 0 { service() }
    }

    private typealias Needs = (read: Bool, write: Bool)

    private func fatal(_ error: WireError) -> Needs {
        apply(.fatalFailure(error))
        return (false, false)
    }

    private func pumpWrites() -> Needs {
        guard batchDepth == 0, !sends.isEmpty, let channel else { return (false, false) }
        if parameters.isDatagram { return flushDatagrams(channel) }
        while phase == .open, var head = sends.first {
            let step: TLSStep
            if let tls = channel.tls {
                step = head.bytes.withUnsafeBytes { tls.write(UnsafeRawBufferPointer(rebasing: $0[head.offset...])) }
            } else {
                do {
                    let n = try channel.socket.withDescriptor { fd throws(SystemError) in try Sys.send(fd, head.bytes, from: head.offset) }
                    step = .done(n)
                } catch where error.wouldBlock {
                    step = .wantWrite
                } catch {
                    step = .failed(error.wireError)
                }
            }
            switch step {
            case .done(let n):
                head.offset += n
                if head.offset >= head.bytes.count {
                    sends.removeFirst()
                    if let c = head.completion { deliverSend(c, nil) }
                } else {
                    sends[0] = head
                }
            case .wantWrite: return (false, true)
            case .wantRead: return (true, false)
            case .closed: return fatal(.tls(reason: "write: the peer closed the TLS session"))
            case .failed(let e): return fatal(e)
            }
        }
        return (false, false)
    }

    /// UDP: one `send` for a single datagram, one `sendmmsg` for several.
    private func flushDatagrams(_ channel: IOChannel) -> Needs {
        while !sends.isEmpty {
            let count = min(sends.count, Int(CWIRE_MAX_BATCH))
            let result: Result<Int, SystemError> = Result { () throws(SystemError) -> Int in
                try channel.socket.withDescriptor { fd throws(SystemError) -> Int in
                    if count == 1 {
                        _ = try Sys.send(fd, sends[0].bytes)
                        return 1
                    }
                    return try Sys.sendmmsg(fd, sends[0 ..< count].map(\.bytes)[...])
                }
            }
            switch result {
            case .success(let sent):
                // One hop to the user's queue for the whole batch (in order), not one per datagram.
                let completions = sends.prefix(sent).compactMap(\.completion)
                sends.removeFirst(sent)
                if !completions.isEmpty { (userQueue ?? .global()).async { for c in completions { c(nil) } } }
            case .failure(let error) where error.wouldBlock:
                return (false, true)
            case .failure(let error):
                // A datagram error (e.g. ECONNREFUSED from an earlier ICMP) belongs to the first one.
                let head = sends.removeFirst()
                if let c = head.completion { deliverSend(c, error.wireError) }
            }
        }
        return (false, false)
    }

    private func pumpReads() -> Needs {
        while phase == .open {
            deliverReady()
            guard !endOfStream, let channel else { return (false, false) }
            if case .udpChild = origin { return (false, false) }  // fed by the listener
            // A stream keeps reading ahead while idle (so a reset or close is seen when it happens,
            // not at the next receive), up to `readAhead` buffered bytes; UDP reads only for a receive.
            guard !receives.isEmpty || (!parameters.isDatagram && inbound.count < Self.readAhead) else { return (false, false) }
            if parameters.isDatagram {
                switch readDatagrams(channel) {
                case .some(let needs): return needs
                case .none: continue
                }
            }
            var chunk = [UInt8](repeating: 0, count: Self.readChunk)
            let step: TLSStep
            if let tls = channel.tls {
                step = chunk.withUnsafeMutableBytes { tls.read(into: $0) }
            } else {
                do {
                    let n = try channel.socket.withDescriptor { fd throws(SystemError) in try Sys.recv(fd, into: &chunk) }
                    step = n == 0 ? .closed : .done(n)
                } catch where error.wouldBlock {
                    step = .wantRead
                } catch {
                    step = .failed(error.wireError)
                }
            }
            switch step {
            case .done(let n): chunk.withUnsafeBytes { inbound.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            case .closed: endOfStream = true
            case .wantRead: return (true, false)
            case .wantWrite: return (false, true)
            case .failed(let e): return fatal(e)
            }
        }
        return (false, false)
    }

    /// Reads up to `datagramBatch` datagrams with one recvmmsg. nil: got some, keep going.
    private func readDatagrams(_ channel: IOChannel) -> Needs? {
        do {
            let got = try channel.socket.withDescriptor { fd throws(SystemError) in
                try Sys.recvmmsg(fd, into: datagramBuffer, size: min(Self.readChunk, (receives.first?.maximum ?? 0) + 1))
            }
            // A datagram filling the buffer is longer than the receive's maximum (the +1 above).
            for d in got { datagrams.append(d.bytes) }
            return nil
        } catch where error.wouldBlock {
            return (true, false)
        } catch {
            // ICMP errors (ECONNREFUSED) are per datagram on UDP: report to one receive, carry on.
            let head = receives.removeFirst()
            deliver(head.completion, nil, false, error.wireError)
            return nil
        }
    }

    /// Hands buffered bytes or datagrams to the receives they satisfy, in order.
    private func deliverReady() {
        while let head = receives.first {
            if parameters.isDatagram {
                guard !datagrams.isEmpty else { return }
                let datagram = datagrams.removeFirst()
                receives.removeFirst()
                if datagram.count > head.maximum {
                    deliver(head.completion, nil, false, .datagramTruncated(length: datagram.count))
                } else {
                    deliver(head.completion, Data(datagram), true, nil)
                }
                continue
            }
            let wanted = max(head.minimum, 1)
            if inbound.count >= wanted || (endOfStream && !inbound.isEmpty) {
                let bytes = inbound.take(min(inbound.count, head.maximum))
                receives.removeFirst()
                deliver(head.completion, Data(bytes), endOfStream && inbound.isEmpty, nil)
            } else if endOfStream {
                receives.removeFirst()
                deliver(head.completion, nil, true, nil)
            } else {
                return
            }
        }
    }

    /// A UDP listener hands this per-peer connection a datagram (on the connection's queue).
    func enqueueDatagram(_ datagram: [UInt8]) {
        queue.async {
            guard self.phase == .open || self.phase == .idle else { return }
            if self.datagrams.count < 1024 { self.datagrams.append(datagram) }  // beyond: dropped, as UDP may
            if self.phase == .open { self.deliverReady() }
        }
    }
}
