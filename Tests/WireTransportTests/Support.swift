import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// How many times longer this run's bounded waits may last: `WIREPROOF_TEST_WAIT_SCALE`, which
/// the sanitizer legs set to 4 (ASan runs every suite at once on a loaded 2-core machine, where a
/// 5 s wait for a refused loopback connect once expired), else 1. A wait ends as soon as its
/// condition holds, so only a wait that fails, or one that expects nothing, lasts longer.
let waitScale: Double = ProcessInfo.processInfo.environment["WIREPROOF_TEST_WAIT_SCALE"].flatMap(Double.init).map { max(1, $0) } ?? 1

/// Collects values delivered on callback queues and lets a test wait, bounded, for a condition.
final class Recorder<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [T] = []

    func append(_ item: T) {
        condition.lock()
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    var values: [T] {
        condition.lock(); defer { condition.unlock() }
        return items
    }

    /// Waits until `predicate(values)` holds or `timeout` seconds (times `waitScale`) pass;
    /// returns whether it held.
    @discardableResult
    func wait(timeout: Double = 5, until predicate: ([T]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout * waitScale)
        condition.lock(); defer { condition.unlock() }
        while !predicate(items) {
            if !condition.wait(until: deadline) { return predicate(items) }
        }
        return true
    }
}

extension Recorder where T == ConnectionState {
    func waitFor(_ state: ConnectionState, timeout: Double = 5) -> Bool { wait(timeout: timeout) { $0.contains(state) } }
    func waitForFailure(timeout: Double = 5) -> WireError? {
        wait(timeout: timeout) { $0.contains { if case .failed = $0 { return true } else { return false } } }
        for s in values { if case .failed(let e) = s { return e } }
        return nil
    }
}

/// One receive, waited for (bounded).
func receiveBlocking(_ connection: Connection, min: Int, max: Int, timeout: Double = 5) -> (Data?, Bool, WireError?)? {
    let box = Recorder<ReceiveResult>()
    connection.receive(minimumIncompleteLength: min, maximumLength: max) { data, complete, error in
        box.append(ReceiveResult(data: data, isComplete: complete, error: error))
    }
    guard box.wait(timeout: timeout, until: { !$0.isEmpty }) else { return nil }
    let r = box.values[0]
    return (r.data, r.isComplete, r.error)
}

struct ReceiveResult: Sendable { let data: Data?; let isComplete: Bool; let error: WireError? }

/// A started listener that keeps every accepted connection (started) for the test to use.
final class TestServer: @unchecked Sendable {
    let listener: Listener
    let accepted = Recorder<Connection>()
    let states = Recorder<ListenerState>()
    let queue = DispatchQueue(label: "test.server")

    init(_ parameters: Parameters, port: UInt16 = 0, limit: Int? = nil, startConnections: Bool = true,
         validate: (@Sendable (SocketAddress) -> Bool)? = nil) throws {
        listener = try Listener(using: parameters, port: port)
        listener.connectionLimit = limit
        listener.validationHandler = validate
        let accepted = self.accepted, queue = self.queue
        listener.newConnectionHandler = { connection in
            accepted.append(connection)
            if startConnections { connection.start(queue: queue) }
        }
        let states = self.states
        listener.stateUpdateHandler = { states.append($0) }
        listener.start(queue: queue)
        guard states.wait(until: { $0.contains(.ready) }) else { throw WireError.notConnected }
    }

    var port: UInt16 { listener.port ?? 0 }

    func stop() {
        listener.cancel()
        for c in accepted.values { c.cancel() }
    }
}

/// A client connection with its states recorded; waits for ready unless told otherwise.
func makeClient(_ parameters: Parameters, port: UInt16, host: String = "127.0.0.1",
                retry: RetryPolicy = RetryPolicy(initialDelay: 0.02, maximumDelay: 0.1)) -> (Connection, Recorder<ConnectionState>) {
    let connection = Connection(host: host, port: port, using: parameters)
    connection.retryPolicy = retry
    let states = Recorder<ConnectionState>()
    connection.stateUpdateHandler = { states.append($0) }
    connection.start(queue: DispatchQueue(label: "test.client"))
    return (connection, states)
}

/// A started server, a client of it that reached `ready`, and the server's side of that connection.
/// The caller stops the server and cancels the client (`defer`).
func connectedPair(_ serverParameters: Parameters, client clientParameters: Parameters? = nil) throws
    -> (server: TestServer, client: Connection, peer: Connection) {
    let server = try TestServer(serverParameters)
    let (client, states) = makeClient(clientParameters ?? serverParameters, port: server.port)
    guard states.waitFor(.ready), server.accepted.wait(until: { !$0.isEmpty }) else {
        client.cancel(); server.stop()
        Issue.record("no connected pair: client states \(states.values), accepted \(server.accepted.values.count)")
        throw WireError.notConnected
    }
    return (server, client, server.accepted.values[0])
}

/// A socket bound to a free loopback port (never listening), and that port; the caller owns it.
private func boundLoopbackSocket(datagram: Bool) throws -> (SocketHandle, UInt16) {
    let address = try SocketAddress.resolve(host: "127.0.0.1", port: 0, datagram: datagram)[0]
    let socket = SocketHandle(taking: try Sys.socket(domain: address.family, type: Sys.socketType(datagram: datagram)))
    do {
        let port = try socket.withDescriptor { fd throws(SystemError) in
            try Sys.bind(fd, address)
            return try Sys.localAddress(fd).port
        }
        return (socket, port)
    } catch {
        socket.close()
        throw error
    }
}

/// A port nothing listens on: bound to learn a free port, then closed before returning, so
/// another test (or process) may take it before the caller uses it: for a server the caller
/// starts on it, or UDP. A test that needs connects refused holds a `RefusingPort` instead.
/// `datagram`: a free UDP port.
func unusedPort(datagram: Bool = false) throws -> UInt16 {
    let (socket, port) = try boundLoopbackSocket(datagram: datagram)
    socket.close()
    return port
}

/// A loopback TCP port that refuses every connect for as long as it is held: bound and never
/// listening (the kernel answers a SYN with a reset), and kept bound, so no other test running
/// meanwhile can start a listener there, as it can on a port `unusedPort()` found free. The
/// owner calls `close()` (before starting a server on the port, or at the end of the test).
final class RefusingPort: @unchecked Sendable {
    let port: UInt16
    private let socket: SocketHandle

    init() throws {
        (socket, port) = try boundLoopbackSocket(datagram: false)
    }

    /// Releases the port; later calls do nothing.
    func close() { socket.close() }
}

/// Deterministic test bytes.
func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] { (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) } }

extension Recorder {
    /// Polls `condition` every 10 ms for at most `timeout` seconds (times `waitScale`); whether it held.
    static func poll(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout * waitScale)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
