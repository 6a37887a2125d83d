import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// Connect and TLS handshake timeouts: a silent peer holds neither a client nor a listener's
/// connection in `preparing` past them. Short timeouts here; only bounded waits, no timing checks.
@Suite("Timeouts")
struct TimeoutTests {
    @Test func connectToASilentPortTimesOutAsARecoverableFailure() throws {
        let silent = try SilentSYNPort()
        defer { silent.close() }
        let parameters = Parameters(tcp: TCPOptions(connectionTimeout: 0.3))
        let (client, states) = makeClient(parameters, resolvingTo: [loopback("127.0.0.1", port: silent.port)],
                                          retry: RetryPolicy(initialDelay: 0.01, maximumDelay: 0.02, maximumAttempts: 2))
        defer { client.cancel() }
        #expect(states.waitForFailure() == .timedOut(.connect, seconds: 0.3), "states: \(states.values)")
        #expect(states.values.contains(.waiting(.timedOut(.connect, seconds: 0.3))), "a timed-out connect is retried first: \(states.values)")
    }

    @Test func clientWhoseServerNeverAnswersTheClientHelloTimesOut() throws {
        let pki = try TestPKI.shared.get()
        let mute = try MutePeer()
        defer { mute.close() }
        let options = TLSOptions(trustedCAFile: pki.caCert, handshakeTimeout: 0.3)
        let (client, states) = makeClient(.tls(options), port: mute.port)
        defer { client.cancel() }
        #expect(states.waitForFailure() == .timedOut(.tlsHandshake, seconds: 0.3), "states: \(states.values)")
    }

    @Test func listenerConnectionWhosePeerNeverSendsAClientHelloTimesOutAndFreesItsSlot() throws {
        let pki = try TestPKI.shared.get()
        var options = pki.serverOptions
        options.handshakeTimeout = 0.3
        let server = try TestServer(.tls(options), limit: 1, startConnections: false)
        defer { server.stop() }
        let accepted = Recorder<ConnectionState>()
        let (silent, silentStates) = makeClient(.tcp, port: server.port)
        defer { silent.cancel() }
        #expect(silentStates.waitFor(.ready))
        #expect(server.accepted.wait { !$0.isEmpty })
        let connection = server.accepted.values[0]
        connection.stateUpdateHandler = { accepted.append($0) }
        connection.start(queue: server.queue)
        #expect(accepted.waitForFailure() == .timedOut(.tlsHandshake, seconds: 0.3), "accepted: \(accepted.values)")
        #expect(Recorder<Int>.poll { server.listener.activeConnectionCount == 0 }, "the slot is free again")
        // With the slot free, a real client gets through the limit of one.
        let (client, states) = makeClient(.tls(TLSOptions(trustedCAFile: pki.caCert)), port: server.port)
        defer { client.cancel() }
        #expect(server.accepted.wait { $0.count == 2 }, "the second peer is accepted, not refused by the limit")
        server.accepted.values[1].start(queue: server.queue)
        #expect(states.waitFor(.ready), "states: \(states.values)")
        #expect(server.listener.refusedCount == 0)
    }
}
