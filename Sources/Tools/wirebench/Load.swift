import Dispatch
import Foundation
import Glibc
import WireTransport

/// A counter shared by callbacks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    func add(_ key: String, _ n: Int = 1) { lock.lock(); counts[key, default: 0] += n; lock.unlock() }
    subscript(key: String) -> Int { lock.lock(); defer { lock.unlock() }; return counts[key, default: 0] }
}

/// True for the first caller only.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false
    func first() -> Bool { lock.lock(); defer { lock.unlock() }; let was = taken; taken = true; return !was }
}

/// Polls `condition` every 10 ms for at most `seconds`.
func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// Open descriptors of this process (entries of /proc/self/fd, minus the one listing them).
func openDescriptors() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1
}

let messageSize = 16

/// A listener that echoes every 16-byte message on every connection it accepts.
final class EchoServer: @unchecked Sendable {
    let listener: Listener
    let queue = DispatchQueue(label: "load.server", attributes: .concurrent)
    let counter = Counter()

    init(_ parameters: Parameters, limit: Int? = nil) throws {
        listener = try Listener(using: parameters)
        listener.connectionLimit = limit
        let queue = self.queue, counter = self.counter
        listener.newConnectionHandler = { connection in
            connection.start(queue: queue)
            EchoServer.echo(connection, counter)
        }
        let ready = DispatchSemaphore(value: 0)
        listener.stateUpdateHandler = { if $0 == .ready { ready.signal() } }
        listener.start(queue: DispatchQueue(label: "load.listener"))
        guard ready.wait(timeout: .now() + 5) == .success else { throw WireError.notConnected }
    }

    var port: UInt16 { listener.port ?? 0 }

    static func echo(_ connection: Connection, _ counter: Counter) {
        connection.receive(minimumIncompleteLength: messageSize, maximumLength: messageSize) { data, _, error in
            guard error == nil, let data, data.count == messageSize else {
                if let error { counter.add("server errors"); counter.add("server error: \(error)") }
                return connection.cancel()
            }
            connection.send(content: data) { error in
                if error == nil { echo(connection, counter) } else { counter.add("server errors"); connection.cancel() }
            }
        }
    }

    func stop() { listener.cancel() }
}

/// A client that connects, then does `rounds` echo round trips; `done` is called once with the outcome.
func echoClient(_ parameters: Parameters, port: UInt16, rounds: Int, queue: DispatchQueue,
                done: @escaping @Sendable (Bool) -> Void) -> Connection {
    let connection = Connection(host: "127.0.0.1", port: port, using: parameters)
    connection.retryPolicy = RetryPolicy(initialDelay: 0.05, maximumDelay: 0.2, maximumAttempts: 1)
    let once = Once()
    let finish: @Sendable (Bool) -> Void = { ok in if once.first() { done(ok) } }
    let message = Data((0 ..< messageSize).map { UInt8($0) })
    @Sendable func round(_ left: Int) {
        guard left > 0 else { return finish(true) }
        connection.send(content: message)
        connection.receive(minimumIncompleteLength: messageSize, maximumLength: messageSize) { data, _, error in
            guard error == nil, data == message else { return finish(false) }
            round(left - 1)
        }
    }
    connection.stateUpdateHandler = { state in
        switch state {
        case .ready: round(rounds)
        case .failed, .waiting: finish(false)
        default: break
        }
    }
    connection.start(queue: queue)
    return connection
}

/// A raw TCP peer that misbehaves on purpose (the transport has no API to reset a connection).
/// One owner of its descriptor; closed by `reset()`, `close()` or deinit.
final class RawPeer {
    private var fd: Int32 = -1

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WireError.posix(call: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // SAFETY: `address` is a live sockaddr_in; connect reads exactly its size.
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { let e = errno; close(); throw WireError.posix(call: "connect", errno: e) }
    }

    /// Best-effort blocking write (errors ignored: the point is to misbehave).
    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Closes with SO_LINGER 0, so the kernel sends RST instead of FIN.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }
}

enum Load {
    /// Checks that did not hold (the run exits 1 if any).
    static let failures = Counter()

    static func expect(_ condition: Bool, _ what: String) {
        if !condition { failures.add("failed"); print("load: FAILED: \(what)") }
    }

    /// `count` clients connected at once to one listener, each echoing once and then held open;
    /// then `silent` raw peers that connect and never send a byte: the listener must count them,
    /// free each slot when its handshake times out, and keep every echoing client.
    static func held(_ name: String, _ parameters: Parameters, client: Parameters, count: Int, silent: Int = 0) throws {
        let before = openDescriptors()
        var peak = before
        do {
            let server = try EchoServer(parameters)
            let results = Counter()
            let queue = DispatchQueue(label: "load.clients", attributes: .concurrent)
            let start = Date()
            let clients = (0 ..< count).map { _ in
                echoClient(client, port: server.port, rounds: 1, queue: queue) { ok in results.add(ok ? "ok" : "failed") }
            }
            _ = waitUntil(120) { results["ok"] + results["failed"] == count }
            let elapsed = Date().timeIntervalSince(start)
            peak = openDescriptors()
            let active = server.listener.activeConnectionCount
            print(String(format: "load %@: %d/%d connections established and echoed in %.2f s, %d held by the listener at once; descriptors before %d, peak %d",
                         name, results["ok"], count, elapsed, active, before, peak))
            expect(results["ok"] == count, "\(name): \(results["failed"]) of \(count) clients failed")
            expect(active == count, "\(name): the listener held \(active) connections, not \(count)")
            if silent > 0 { try silentPeers(name, silent, server: server, held: count, clients: clients) }
            for c in clients { c.cancel() }
            expect(waitUntil(30) { server.listener.activeConnectionCount == 0 }, "\(name): server connections still active after the clients left")
            server.stop()
        }
        let settled = waitUntil(10) { openDescriptors() == before }
        let after = openDescriptors()
        print("load \(name): descriptors after \(after) (before \(before))")
        expect(settled, "\(name): \(after - before) descriptors leaked")
    }

    /// `count` peers that connect to `server` and stay silent, while `held` clients are connected.
    private static func silentPeers(_ name: String, _ count: Int, server: EchoServer, held: Int, clients: [Connection]) throws {
        let errorsBefore = server.counter["server errors"]
        let start = Date()
        let peers = try (0 ..< count).map { _ in try RawPeer(port: server.port) }
        defer { for peer in peers { peer.close() } }
        let counted = waitUntil(10) { server.listener.activeConnectionCount == held + count }
        let peak = server.listener.activeConnectionCount
        let freed = waitUntil(60) { server.listener.activeConnectionCount == held }
        let seconds = Date().timeIntervalSince(start)
        let stillReady = clients.filter { $0.currentState == .ready }.count
        let timedOut = server.counter["server errors"] - errorsBefore
        let slots = freed ? String(format: "every slot freed by the handshake timeout after %.1f s", seconds)
                          : String(format: "%d slots still held after %.1f s", server.listener.activeConnectionCount - held, seconds)
        print("load \(name): \(count) silent peers: listener held \(peak) at once; \(slots) (\(timedOut) server-side failures); \(stillReady)/\(held) echoing clients still ready")
        expect(counted, "\(name): the listener held \(peak) connections with \(count) silent peers, not \(held + count)")
        expect(freed, "\(name): \(server.listener.activeConnectionCount - held) silent peers still hold a slot after 60 s")
        expect(timedOut == count, "\(name): \(timedOut) server-side failures for \(count) silent peers")
        expect(stillReady == held, "\(name): \(held - stillReady) echoing clients lost while silent peers timed out")
    }

    /// A connect storm against a listener with a connection limit.
    static func storm(limit: Int, count: Int) throws {
        let before = openDescriptors()
        do {
            let server = try EchoServer(.tcp, limit: limit)
            let results = Counter()
            let queue = DispatchQueue(label: "load.storm", attributes: .concurrent)
            var peakActive = 0
            let clients = (0 ..< count).map { _ in
                echoClient(.tcp, port: server.port, rounds: 1, queue: queue) { ok in results.add(ok ? "served" : "turned away") }
            }
            _ = waitUntil(20) {
                peakActive = max(peakActive, server.listener.activeConnectionCount)
                return results["served"] + results["turned away"] == count
            }
            let refused = server.listener.refusedCount
            let unfinished = count - results["served"] - results["turned away"]
            if unfinished > 0 {
                let states = Dictionary(grouping: clients.map { "\($0.currentState)" }, by: { $0 }).mapValues(\.count)
                print("load storm: \(unfinished) clients neither served nor turned away within 20 s; client states: \(states)")
            }
            print("load storm: \(count) clients at once, limit \(limit): \(results["served"]) served, \(results["turned away"]) turned away, listener refused \(refused), peak active \(peakActive)")
            expect(unfinished == 0, "storm: \(unfinished) clients never learned that the listener reset them (no error, no end of stream)")
            expect(results["served"] == limit, "storm: \(results["served"]) served, limit \(limit)")
            expect(refused == count - limit, "storm: refused \(refused), expected \(count - limit)")
            expect(peakActive <= limit, "storm: \(peakActive) active connections above the limit \(limit)")
            for c in clients { c.cancel() }
            _ = waitUntil(30) { server.listener.activeConnectionCount == 0 }
            server.stop()
        }
        let settled = waitUntil(10) { openDescriptors() == before }
        print("load storm: descriptors before \(before), after \(openDescriptors())")
        expect(settled, "storm: \(openDescriptors() - before) descriptors still open")
    }

    /// Stalled, garbage and resetting peers while good clients keep echoing.
    static func faults(tls: TLSOptions, server serverTLS: TLSOptions, bad: Int, good: Int, rounds: Int) throws {
        let before = openDescriptors()
        do {
            let tcp = try EchoServer(.tcp)
            let secure = try EchoServer(.tls(serverTLS))
            var peers: [RawPeer] = []
            // Stalled mid-message: 5 of 16 bytes, then silence (held open throughout).
            for _ in 0 ..< bad {
                let p = try RawPeer(port: tcp.port)
                p.write([1, 2, 3, 4, 5])
                peers.append(p)
            }
            // Garbage instead of a TLS ClientHello.
            var random = SystemRandomNumberGenerator()
            for _ in 0 ..< bad {
                let p = try RawPeer(port: secure.port)
                p.write((0 ..< 64).map { _ in UInt8.random(in: 0 ... 255, using: &random) })
                peers.append(p)
            }
            // Reset mid-write: 1,000 messages queued for echo, then RST while the server writes.
            for _ in 0 ..< bad {
                let p = try RawPeer(port: tcp.port)
                p.write([UInt8](repeating: 7, count: messageSize * 1000))
                p.reset()
            }
            let results = Counter()
            let queue = DispatchQueue(label: "load.good", attributes: .concurrent)
            let clients = (0 ..< good).map { _ in
                echoClient(.tcp, port: tcp.port, rounds: rounds, queue: queue) { ok in results.add(ok ? "ok" : "failed") }
            } + (0 ..< good).map { _ in
                echoClient(.tls(tls), port: secure.port, rounds: rounds, queue: queue) { ok in results.add(ok ? "ok" : "failed") }
            }
            _ = waitUntil(60) { results["ok"] + results["failed"] == 2 * good }
            print("load faults: \(bad) stalled + \(bad) garbage-TLS + \(bad) reset-mid-write peers; \(results["ok"])/\(2 * good) good clients (TCP and TLS) completed \(rounds) echoes each; server errors seen: TCP \(tcp.counter["server errors"]), TLS \(secure.counter["server errors"])")
            expect(results["ok"] == 2 * good, "faults: \(results["failed"]) good clients failed")
            for c in clients { c.cancel() }
            for p in peers { p.close() }
            peers = []
            _ = waitUntil(30) { tcp.listener.activeConnectionCount == 0 && secure.listener.activeConnectionCount == 0 }
            print("load faults: listeners' active connections after the peers left: TCP \(tcp.listener.activeConnectionCount), TLS \(secure.listener.activeConnectionCount)")
            expect(tcp.listener.activeConnectionCount == 0 && secure.listener.activeConnectionCount == 0, "faults: connections left active")
            tcp.stop()
            secure.stop()
        }
        let settled = waitUntil(10) { openDescriptors() == before }
        print("load faults: descriptors before \(before), after \(openDescriptors())")
        expect(settled, "faults: descriptors leaked")
    }

    static func run(pki: String, count: Int) throws -> Int32 {
        // Dispatch opens its event descriptors (epoll, eventfd, timerfd) on first use and keeps
        // them: one listener started and stopped first, so baselines include them.
        do {
            let warm = try EchoServer(.tcp)
            let done = DispatchSemaphore(value: 0)
            let client = echoClient(.tcp, port: warm.port, rounds: 1, queue: .global()) { _ in done.signal() }
            _ = done.wait(timeout: .now() + 5)
            client.cancel()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { done.signal() }
            _ = done.wait(timeout: .now() + 5)
            warm.stop()
            _ = waitUntil(1) { false }
        }
        let server = TLSOptions(certificateFile: pki + "/server.pem", privateKeyFile: pki + "/server.key")
        let client = TLSOptions(trustedCAFile: pki + "/ca.pem", serverName: "localhost")
        try held("tcp", .tcp, client: .tcp, count: count)
        try held("tls", .tls(server), client: .tls(client), count: count, silent: 200)
        try storm(limit: 100, count: 500)
        try faults(tls: client, server: server, bad: 50, good: 20, rounds: 50)
        if failures["failed"] == 0 { print("load: every check held"); return 0 }
        print("load: \(failures["failed"]) check(s) failed")
        return 1
    }
}
