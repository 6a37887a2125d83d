import Dispatch
import Testing
@testable import WireTransport

/// What a connection does when its path watcher reports a change, with the change handed in on
/// the connection's queue as the watcher would hand it (loopback routes never go away by
/// themselves): an attempt in progress is abandoned to wait for the path, a wait for a back-off
/// turns into a wait for the path, and the path's return retries at once.
@Suite struct PathChangeTests {
    static let reason = "the test took the route away"
    static let lost = NetworkPath(status: .unsatisfied, availableInterfaces: [], supportsIPv4: false, supportsIPv6: false,
                                  unsatisfiedReason: reason)
    static let back = NetworkPath(status: .satisfied, availableInterfaces: [], supportsIPv4: true, supportsIPv6: false,
                                  unsatisfiedReason: nil)

    /// A started client whose every state is recorded; a back-off of a minute, so no retry comes by itself.
    static func client(_ parameters: Parameters, port: UInt16) -> (Connection, Recorder<ConnectionState>) {
        let client = Connection(host: "127.0.0.1", port: port, using: parameters)
        client.retryPolicy = RetryPolicy(initialDelay: 60, maximumDelay: 60)
        let states = Recorder<ConnectionState>()
        client.stateUpdateHandler = { states.append($0) }
        client.start(queue: DispatchQueue(label: "test.path.change"))
        return (client, states)
    }

    @Test func aPathLostWhileWaitingToRetryWaitsForThePathAndItsReturnRetriesAtOnce() throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let (client, states) = Self.client(.tcp, port: refusing.port)
        defer { client.cancel() }
        try #require(states.wait { $0.count == 2 })
        let refused = states.values[1]
        #expect(states.values[0] == .preparing && refused != .preparing)
        client.queue.sync { client.pathChanged(Self.lost) }
        client.queue.sync { client.pathChanged(Self.back) }
        #expect(states.wait { $0.count == 5 })
        #expect(states.values == [.preparing, refused, .waiting(.pathUnsatisfied(reason: Self.reason)), .preparing, refused])
    }

    @Test func aPathLostWhilePreparingAbandonsTheAttemptToWaitForThePath() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tcp)  // accepts, and never answers the client's TLS hello
        defer { server.stop() }
        let (client, states) = Self.client(.tls(TLSOptions(trustedCAFile: pki.caCert)), port: server.port)
        defer { client.cancel() }
        try #require(server.accepted.wait { !$0.isEmpty })
        client.queue.sync { client.pathChanged(Self.lost) }
        #expect(states.wait { $0.count == 2 })
        #expect(states.values == [.preparing, .waiting(.pathUnsatisfied(reason: Self.reason))])
        #expect(client.queue.sync { client.attempts } == 0, "an attempt abandoned for the path is not counted")
    }
}
