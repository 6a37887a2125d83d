import Dispatch
import Foundation
import Testing
@testable import WireTransport

@Suite("Listener")
struct ListenerTests {
    @Test func connectionLimitRefusesAndCountsTheExcess() throws {
        let server = try TestServer(.tcp, limit: 2)
        defer { server.stop() }
        var clients: [(Connection, Recorder<ConnectionState>)] = []
        for _ in 0 ..< 2 {
            let c = makeClient(.tcp, port: server.port)
            #expect(c.1.waitFor(.ready))
            clients.append(c)
        }
        #expect(server.accepted.wait { $0.count == 2 })
        for _ in 0 ..< 3 {
            // One attempt each, so every excess peer is refused exactly once.
            let c = makeClient(.tcp, port: server.port, retry: RetryPolicy(maximumAttempts: 1))
            #expect(c.1.wait { $0.contains(.ready) || $0.contains { if case .failed = $0 { return true }; return false } })
            if c.1.values.contains(.ready) {
                // The kernel completed the handshake before the listener accepted and reset it.
                let r = receiveBlocking(c.0, min: 1, max: 1)
                #expect(r?.2 == .posix(call: "recv", errno: ECONNRESET) || r?.1 == true, "an excess peer is reset: \(String(describing: r))")
            } else {
                #expect(c.1.waitForFailure() == .posix(call: "connect", errno: ECONNRESET))
            }
            clients.append(c)
        }
        #expect(server.listener.refusedCount == 3)
        #expect(server.accepted.values.count == 2)
        // Closing one admitted connection makes room for one more.
        server.accepted.values[0].cancel()
        #expect(Recorder<Int>().wait(timeout: 2) { _ in server.listener.activeConnectionCount == 1 })
        let extra = makeClient(.tcp, port: server.port)
        #expect(extra.1.waitFor(.ready))
        #expect(server.accepted.wait { $0.count == 3 })
        for c in clients + [extra] { c.0.cancel() }
    }

    @Test func validationHookRunsBeforeAnyDataAndCanReject() throws {
        let seen = Recorder<SocketAddress>()
        let server = try TestServer(.tcp, validate: { address in seen.append(address); return false })
        defer { server.stop() }
        let (client, states) = makeClient(.tcp, port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        client.send(bytes: pattern(10))
        let r = receiveBlocking(client, min: 1, max: 1)
        #expect(r?.1 == true || r?.2 != nil, "a rejected peer is closed")
        #expect(seen.values.count == 1 && seen.values.first?.host == "127.0.0.1")
        #expect(server.accepted.values.isEmpty, "a rejected connection never reaches the new-connection handler")
        #expect(Recorder<Int>().wait(timeout: 2) { _ in server.listener.rejectedCount == 1 })
    }

    @Test func listenerOnABusyPortFails() throws {
        let first = try TestServer(.tcp)
        defer { first.stop() }
        let second = try Listener(using: .tcp, port: first.port)
        let states = Recorder<ListenerState>()
        second.stateUpdateHandler = { states.append($0) }
        second.start(queue: DispatchQueue(label: "busy"))
        #expect(states.wait { $0.contains(.failed(.posix(call: "bind", errno: EADDRINUSE))) }, "\(states.values)")
        second.cancel()
    }
}
