import Dispatch
import Foundation
import Testing
@testable import WireTransport

/// Cancels its connections after `seconds` unless stopped first, so every await on them ends
/// (the tests stay bounded even when the bridge under test is broken); `fired` tells whether it did.
/// 120 s: a guard against hangs, not a clock. With every suite in parallel on 2 cores, other
/// suites' blocking waits held the cooperative threads these tests resume on for up to a minute.
final class Watchdog: @unchecked Sendable {
    /// What the timer holds until it fires: emptied by `stop()`, so the connections and servers
    /// the closure captured are released with the test, not 120 s later (a listener still alive at
    /// exit is reported by LeakSanitizer: its weak-reference side table).
    private final class Target: @unchecked Sendable {
        let lock = NSLock()
        var connections: (@Sendable () -> [Connection])?
        var fired = false
    }
    private let target = Target()

    init(_ seconds: Double = 120, _ connections: @escaping @Sendable () -> [Connection]) {
        let target = self.target
        target.connections = connections
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            let due: (@Sendable () -> [Connection])? = target.lock.withLock {
                defer { target.connections = nil }
                target.fired = target.connections != nil
                return target.connections
            }
            due?().forEach { $0.cancel() }
        }
    }

    var fired: Bool { target.lock.withLock { target.fired } }
    func stop() { target.lock.withLock { target.connections = nil } }
}

/// Runs a task's jobs on a serial queue of its own (an overcommitting Dispatch queue, so it always
/// gets a thread) instead of the cooperative pool: with every suite in parallel, and slower still
/// under ASan, other suites' blocking waits held the pool's threads for minutes, and these tests,
/// which only await, could not resume. One executor per task: a test blocking in a wait must not
/// hold up another task's jobs.
final class PrivateQueueExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "test.async.executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// The async/await bridge: the same connections as the completion-handler tests, awaited.
@Suite("async/await")
struct AsyncConnectionTests {

    @Test func anEchoOverTLSAwaitedEndToEnd() async throws {
        try await withTaskExecutorPreference(PrivateQueueExecutor()) {
            let pki = try TestPKI.shared.get()
            let server = try TestServer(.tls(pki.serverOptions))
            defer { server.stop() }
            let client = Connection(host: "127.0.0.1", port: server.port, using: .tls(TLSOptions(trustedCAFile: pki.caCert)))
            client.start(queue: DispatchQueue(label: "test.async.client"))
            defer { client.cancel() }
            let watchdog = Watchdog { [client] + server.accepted.values }
            defer { watchdog.stop() }
            try await client.ready()
            #expect(server.accepted.wait { !$0.isEmpty })
            let peer = server.accepted.values[0]
            try await peer.ready()

            let payload = pattern(70_000)
            try await client.send(payload, isFinal: true)
            var received: [UInt8] = []
            for try await chunk in peer.messages(maximumLength: 16_384) { received += chunk }
            #expect(received == payload, "the sequence ends when the client's final message is read")
            try await peer.send(Array("done".utf8))
            let answer = try await client.receive(minimum: 4, maximum: 4)
            #expect(answer.data == Data("done".utf8))
            let fired = watchdog.fired
            #expect(!fired)
        }
    }

    @Test func statesArriveInOrderAndEndAfterCancel() async throws {
        try await withTaskExecutorPreference(PrivateQueueExecutor()) {
            let server = try TestServer(.tcp)
            defer { server.stop() }
            let client = Connection(host: "127.0.0.1", port: server.port, using: .tcp)
            let states = client.states()
            client.start(queue: DispatchQueue(label: "test.async.states"))
            let watchdog = Watchdog { [client] }
            defer { watchdog.stop() }
            var seen: [ConnectionState] = []
            for await state in states {
                seen.append(state)
                if state == .ready { client.cancel() }
            }
            #expect(seen == [.setup, .preparing, .ready, .cancelled])
            let fired = watchdog.fired
            #expect(!fired)
        }
    }

    @Test func readyThrowsTheFailure() async throws {
        try await withTaskExecutorPreference(PrivateQueueExecutor()) {
            let pki = try TestPKI.shared.get()
            let server = try TestServer(.tls(pki.serverOptions))
            defer { server.stop() }
            let client = Connection(host: "127.0.0.1", port: server.port, using: .tls(TLSOptions(trustedCAFile: pki.otherCACert)))
            client.start(queue: DispatchQueue(label: "test.async.failing"))
            defer { client.cancel() }
            let watchdog = Watchdog { [client] }
            defer { watchdog.stop() }
            do {
                try await client.ready()
                Issue.record("ready() returned for a server signed by an untrusted CA")
            } catch let error as WireError {
                if case .tls(let reason) = error {
                    #expect(reason.contains("certificate verify failed"), "\(reason)")
                } else {
                    Issue.record("\(error)")
                }
            }
            let fired = watchdog.fired
            #expect(!fired)
        }
    }

    @Test func cancellingTheAwaitingTaskCancelsTheConnection() async throws {
        try await withTaskExecutorPreference(PrivateQueueExecutor()) {
            let server = try TestServer(.tcp)
            defer { server.stop() }
            let client = Connection(host: "127.0.0.1", port: server.port, using: .tcp)
            client.start(queue: DispatchQueue(label: "test.async.cancel"))
            let watchdog = Watchdog { [client] }
            defer { watchdog.stop() }
            try await client.ready()
            let waiting = Task(executorPreference: PrivateQueueExecutor()) { try await client.receive(minimum: 1, maximum: 10) }  // the server never sends
            // Cancel only once the receive is pending (the task may start late on a starved pool).
            #expect(Recorder<Bool>.poll(timeout: 60) { client.queue.sync { !client.receives.isEmpty } })
            waiting.cancel()
            // The cancellation handler runs inside cancel(): the connection is cancelled at once, with
            // no need for the awaiting task to run again (which a starved thread pool may delay).
            #expect(Recorder<Bool>.poll { client.currentState == .cancelled })
            let fired = watchdog.fired  // a plain Bool: swift-testing crashed reflecting the Watchdog in a failure message
            #expect(!fired, "cancelled by the task, not by the watchdog")
            do {
                _ = try await waiting.value
                Issue.record("the receive returned")
            } catch let error as WireError {
                #expect(error == .cancelled)
            }
        }
    }
}
