import Dispatch
import Foundation
import Testing
@testable import WireTransport

/// The async bridge over UDP: every datagram is a complete message, so `isComplete` must not end
/// the sequence as it does at a stream's end.
@Suite struct AsyncDatagramTests {
    @Test func theMessageSequenceYieldsEveryDatagramAndDoesNotEndAtTheFirst() async throws {
        try await withTaskExecutorPreference(PrivateQueueExecutor()) {
            let server = try TestServer(.udp)
            defer { server.stop() }
            let (client, states) = makeClient(.udp, port: server.port)
            defer { client.cancel() }
            #expect(states.waitFor(.ready))
            client.send(bytes: [0])  // a UDP listener makes the peer's connection at its first datagram
            #expect(server.accepted.wait { !$0.isEmpty })
            let peer = try #require(server.accepted.values.first)
            #expect(receiveBlocking(peer, min: 1, max: 10)?.0 == Data([0]))
            let watchdog = Watchdog(20) { [client] }  // a stalled sequence ends with the cancel
            defer { watchdog.stop() }
            for i: UInt8 in 1 ... 3 { peer.send(bytes: [i, i]) }
            var got: [Data] = []
            do {
                for try await datagram in client.messages(maximumLength: 10) {
                    got.append(datagram)
                    if got.count == 3 { break }
                }
            } catch {
                Issue.record("the sequence failed: \(error)")
            }
            #expect(got == [Data([1, 1]), Data([2, 2]), Data([3, 3])], "\(got)")
            let fired = watchdog.fired
            #expect(!fired)
        }
    }
}
