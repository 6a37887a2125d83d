import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// The public accessors promise to be callable from any thread. Here other threads read
/// `currentState`, `remoteAddress`, `currentPath`, `isViable` and the listener's counts, and get and set the handlers and the
/// retry policy, while connections open, fail, wait, retry and cancel. Under ThreadSanitizer (the
/// tsan leg) an accessor that skips the connection's queue is reported as a race; without it the
/// test still checks that every connection ends and that no reader ever saw a connection leave a
/// terminal state.
@Suite("Thread safety stress")
struct ThreadSafetyStressTests {
    /// One reader's view of one connection's states over time (terminal ones must stay terminal).
    final class Observations: @unchecked Sendable {
        private let lock = NSLock()
        private var leftTerminal: [String] = []
        func record(_ sequence: [ConnectionState], connection: Int) {
            guard let firstTerminal = sequence.firstIndex(where: \.isTerminal) else { return }
            if sequence[firstTerminal...].contains(where: { !$0.isTerminal }) {
                lock.lock(); leftTerminal.append("connection \(connection): \(sequence)"); lock.unlock()
            }
        }
        var violations: [String] { lock.lock(); defer { lock.unlock() }; return leftTerminal }
    }

    @Test func accessorsFromOtherThreadsWhileConnectionsOpenFailRetryAndCancel() throws {
        final class Weak: @unchecked Sendable { weak var connection: Connection?; init(_ c: Connection) { connection = c } }
        var accepted: [Weak] = []
        do {
            let server = try TestServer(.tcp)
            let refusing = try RefusingPort()
            defer { refusing.close() }
            let refused = refusing.port
            // Waves of connections, so the readers overlap many state changes.
            for wave in 0 ..< 6 {
                try runWave(wave, server: server, refusedPort: refused)
            }
            // Every accepted connection ends, including one the listener handed over while it was
            // being cancelled (stop's own pass can miss it).
            server.stop()
            #expect(server.states.wait(timeout: 10) { $0.contains(.cancelled) })
            for c in server.accepted.values { c.cancel() }
            for c in server.accepted.values { #expect(waitUntilCancelled(c), "accepted: \(c.currentState)") }
            accepted = server.accepted.values.map(Weak.init)
        }
        // ... and is released before the test returns. A connection still alive when the test
        // process exits leaves its weak-reference side table to LeakSanitizer, which cannot see the
        // shifted pointer the object's header keeps to it and reports 32 bytes per connection.
        for _ in 0 ..< 500 where accepted.contains(where: { $0.connection != nil }) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(accepted.allSatisfy { $0.connection == nil }, "every accepted connection released")
    }

    private func waitUntilCancelled(_ connection: Connection) -> Bool {
        for _ in 0 ..< 500 where connection.currentState != .cancelled { Thread.sleep(forTimeInterval: 0.01) }
        return connection.currentState == .cancelled
    }

    private func runWave(_ wave: Int, server: TestServer, refusedPort: UInt16) throws {
        let count = 24
        let callbacks = DispatchQueue(label: "test.stress.callbacks")
        let ended = Recorder<Int>()
        let connections: [Connection] = (0 ..< count).map { index in
            // Even: a live server (ready, then cancelled). Odd: a refused port (waiting, retried,
            // failed after four attempts), every fourth of those cancelled while it waits.
            let c = Connection(host: "127.0.0.1", port: index % 2 == 0 ? server.port : refusedPort, using: .tcp)
            c.retryPolicy = RetryPolicy(initialDelay: 0.002, maximumDelay: 0.004, maximumAttempts: 4)
            return c
        }
        let observations = Observations()
        let stop = Recorder<Bool>()
        let started = Recorder<Int>()
        let readers = DispatchGroup()
        // Threads of their own: Dispatch's global pool has about one thread per core, and readers
        // parked there starved the connections' own queues, so the two never overlapped.
        for reader in 0 ..< 3 {
            readers.enter()
            Thread {
                defer { readers.leave() }
                started.append(reader)
                var seen = [[ConnectionState]](repeating: [], count: count)
                // Until every connection has ended (bounded by the round count, whichever first).
                for round in 0 ..< 5_000_000 {
                    if round % 256 == 0, !stop.values.isEmpty { break }
                    let i = round % count
                    let c = connections[i]
                    let state = c.currentState
                    if seen[i].last != state { seen[i].append(state) }
                    // Readers 0 and 1 touch nothing else, so no other accessor's queue hop orders
                    // their reads after the connections' writes.
                    guard reader == 2 else { continue }
                    _ = c.remoteAddress
                    _ = c.stateUpdateHandler
                    _ = c.currentPath  // written on the queue by each connect's route lookup
                    _ = c.isViable
                    _ = c.viabilityUpdateHandler
                    var p = c.retryPolicy
                    p.maximumDelay = 0.004
                    c.retryPolicy = p
                    _ = server.listener.activeConnectionCount + server.listener.acceptedCount + server.listener.refusedCount
                    _ = server.listener.currentState
                }
                for i in 0 ..< count { observations.record(seen[i], connection: i) }
            }.start()
        }
        let handler: @Sendable (Int, Connection) -> @Sendable (ConnectionState) -> Void = { index, c in
            { state in
                switch state {
                case .ready: c.cancel()
                case .waiting where index % 4 == 3: c.cancel()
                case .failed, .cancelled: ended.append(index)
                default: break
                }
            }
        }
        // The readers run before the first connection starts.
        #expect(started.wait(timeout: 10) { $0.count == 3 }, "wave \(wave): readers started")
        for (index, c) in connections.enumerated() {
            c.stateUpdateHandler = handler(index, c)
            c.start(queue: callbacks)
        }
        // Handlers replaced from another thread while the connections run: the replacement keeps
        // the same contract, so every connection must still be seen to end.
        DispatchQueue.global().async(group: readers) {
            for (index, c) in connections.enumerated() where index % 3 == 0 { c.stateUpdateHandler = handler(index, c) }
        }
        let allEnded = ended.wait(timeout: 30) { Set($0).count == count }
        stop.append(true)
        #expect(readers.wait(timeout: .now() + 30) == .success, "wave \(wave): the readers finish (bounded loops)")
        #expect(allEnded, "wave \(wave): ended \(Set(ended.values).sorted()) of \(count)")
        #expect(observations.violations.isEmpty, "wave \(wave): \(observations.violations.prefix(3))")
        for c in connections { #expect(c.currentState.isTerminal, "wave \(wave): \(c.currentState)") }
        for c in connections { c.cancel() }
    }
}
