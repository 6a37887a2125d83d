import Dispatch
import Glibc

/// One connect attempt over every address of a host, in the style of Happy Eyeballs v2
/// (RFC 8305): addresses are interleaved by family (section 4), a connect to the next address
/// starts when the previous one fails or after `attemptDelay` while it is still pending
/// (section 5), and the first socket to connect wins; every other one is closed.
///
/// getaddrinfo returns both families in one answer, so the Resolution Delay of section 3 (waiting
/// briefly for AAAA after A) has nothing to wait for here.
///
/// Confined to `queue` (the connection's private queue). Ownership: each pending socket belongs
/// to its own `IOChannel`; the winner's channel is handed to `completion` (which then owns it),
/// every other one is closed here. `completion` runs at most once, and never after `cancel()`.
final class ConnectRace {
    typealias Outcome = Result<(channel: IOChannel, address: SocketAddress), WireError>

    private let queue: DispatchQueue
    private let socketType: Int32
    private let attemptDelay: Double
    private var waiting: [SocketAddress]
    private var pending: [(channel: IOChannel, address: SocketAddress)] = []
    private var delayTimer: DispatchWorkItem?
    private var lastError: WireError?
    private var completion: ((Outcome) -> Void)?
    /// Runs on each fresh socket before its connect (socket options, a local bind); a throw skips
    /// that address and is the race's error if no other address connects.
    private let prepare: (_ fd: Int32, _ family: Int32) throws(WireError) -> Void

    init(addresses: [SocketAddress], datagram: Bool, attemptDelay: Double, queue: DispatchQueue,
         prepare: @escaping (_ fd: Int32, _ family: Int32) throws(WireError) -> Void = { _, _ in },
         completion: @escaping (Outcome) -> Void) {
        self.waiting = Self.interleaved(addresses)
        self.socketType = Sys.socketType(datagram: datagram)
        self.attemptDelay = attemptDelay
        self.queue = queue
        self.prepare = prepare
        self.completion = completion
    }

    /// The order of section 4: the resolver's first family first, then alternating families,
    /// each family keeping the resolver's order.
    static func interleaved(_ addresses: [SocketAddress]) -> [SocketAddress] {
        guard let first = addresses.first else { return [] }
        var same = addresses.filter { $0.family == first.family }[...]
        var other = addresses.filter { $0.family != first.family }[...]
        var result: [SocketAddress] = []
        while !same.isEmpty || !other.isEmpty {
            if let a = same.popFirst() { result.append(a) }
            if let b = other.popFirst() { result.append(b) }
        }
        return result
    }

    func start() { startNext() }

    /// Closes every pending socket; the completion is dropped without being called.
    func cancel() {
        completion = nil
        closeAll()
    }

    /// Starts connects until one is pending (then schedules the next after the delay), one wins,
    /// or no address is left (then, once nothing is pending, the race has failed).
    private func startNext() {
        delayTimer?.cancel()
        delayTimer = nil
        guard completion != nil else { return }
        while !waiting.isEmpty {
            let address = waiting.removeFirst()
            let channel: IOChannel
            do {
                channel = IOChannel(socket: SocketHandle(taking: try Sys.socket(domain: address.family, type: socketType)), queue: queue)
            } catch {
                lastError = error.wireError
                continue
            }
            if let failure = prepared(channel, for: address) {
                channel.close()
                lastError = failure
                continue
            }
            do {
                try channel.socket.withDescriptor { fd throws(SystemError) in try Sys.connect(fd, address) }
                return win(channel, address)
            } catch where error.errno == EINPROGRESS {
                pending.append((channel, address))
                channel.onWritable = { [weak self, unowned channel] in self?.settled(channel) }
                channel.armWrite(true)
                if !waiting.isEmpty {
                    let timer = DispatchWorkItem { [weak self] in self?.startNext() }
                    delayTimer = timer
                    queue.asyncAfter(deadline: .now() + attemptDelay, execute: timer)
                }
                return
            } catch {
                channel.close()
                lastError = error.wireError
            }
        }
        if pending.isEmpty { finish(.failure(lastError ?? .resolution(host: "?", reason: "no address"))) }
    }

    /// Runs `prepare` on the channel's fresh socket; the error, if it threw.
    private func prepared(_ channel: IOChannel, for address: SocketAddress) -> WireError? {
        let fd: Int32
        do { fd = try channel.socket.withDescriptor { fd throws(SystemError) in fd } } catch { return error.wireError }
        do { try prepare(fd, address.family) } catch { return error }
        return nil
    }

    /// A pending connect finished (its socket became writable): won, or failed and the next starts.
    private func settled(_ channel: IOChannel) {
        guard let index = pending.firstIndex(where: { $0.channel === channel }) else { return }
        let attempt = pending.remove(at: index)
        let error: Int32
        do {
            error = try channel.socket.withDescriptor { fd throws(SystemError) in try Sys.pendingError(fd) }
        } catch {
            channel.close()
            lastError = error.wireError
            return startNext()
        }
        if error == 0 { return win(channel, attempt.address) }
        channel.close()
        lastError = .posix(call: "connect", errno: error)
        startNext()
    }

    private func win(_ channel: IOChannel, _ address: SocketAddress) {
        channel.armWrite(false)
        channel.onWritable = nil
        closeAll()
        finish(.success((channel, address)))
    }

    private func closeAll() {
        delayTimer?.cancel()
        delayTimer = nil
        waiting = []
        for attempt in pending { attempt.channel.close() }
        pending = []
    }

    private func finish(_ outcome: Outcome) {
        guard let completion else { return }
        self.completion = nil
        completion(outcome)
    }
}
