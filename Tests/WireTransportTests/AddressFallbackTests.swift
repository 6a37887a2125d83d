import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// A host name with several addresses: every address is tried, in the resolver's order with the
/// families interleaved, connects overlapping by the connection attempt delay (RFC 8305).
@Suite("Address fallback")
struct AddressFallbackTests {
    /// A name whose first address is ::1 (nothing listens there: refused) reaches the server on
    /// 127.0.0.1 instead of waiting and retrying ::1 forever.
    @Test func nameResolvingToIPv6FirstReachesAnIPv4OnlyServer() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let (client, states) = makeClient(.tcp, resolvingTo: [loopback("::1", port: server.port), loopback("127.0.0.1", port: server.port)])
        defer { client.cancel() }
        #expect(states.waitFor(.ready), "states: \(states.values)")
        #expect(client.remoteAddress?.host == "127.0.0.1")
        #expect(!states.values.contains { if case .waiting = $0 { return true }; return false }, "no waiting while an address remains: \(states.values)")
    }

    /// The first address never answers its SYN: the next one is started after the attempt delay,
    /// without waiting for the first to time out, and wins.
    @Test func silentFirstAddressIsOvertakenByTheNextAfterTheAttemptDelay() throws {
        let silent = try SilentSYNPort()
        defer { silent.close() }
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let parameters = Parameters(tcp: TCPOptions(connectionTimeout: 60, connectionAttemptDelay: 0.1))
        let (client, states) = makeClient(parameters, resolvingTo: [loopback("127.0.0.1", port: silent.port), loopback("127.0.0.1", port: server.port)])
        defer { client.cancel() }
        #expect(states.waitFor(.ready), "states: \(states.values)")
        #expect(client.remoteAddress?.port == server.port)
    }

    /// RFC 8305 section 4: the first family as the resolver gave it, then alternating families.
    @Test func addressesAreInterleavedByFamilyStartingWithTheResolversFirst() {
        let v6a = loopback("::1", port: 1), v6b = loopback("::1", port: 2), v6c = loopback("::1", port: 3)
        let v4a = loopback("127.0.0.1", port: 4), v4b = loopback("127.0.0.1", port: 5)
        #expect(ConnectRace.interleaved([v6a, v6b, v6c, v4a, v4b]) == [v6a, v4a, v6b, v4b, v6c])
        #expect(ConnectRace.interleaved([v4a, v6a, v6b, v4b]) == [v4a, v6a, v4b, v6b])
        #expect(ConnectRace.interleaved([v4a]) == [v4a])
        #expect(ConnectRace.interleaved([]) == [])
    }

    /// Every address refused: one recoverable failure (waiting) per round, not one per address.
    @Test func everyAddressRefusedWaitsWithTheLastError() throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        let (client, states) = makeClient(.tcp, resolvingTo: [loopback("::1", port: port), loopback("127.0.0.1", port: port)],
                                          retry: RetryPolicy(initialDelay: 0.01, maximumDelay: 0.02, maximumAttempts: 2))
        defer { client.cancel() }
        #expect(states.waitForFailure() == .posix(call: "connect", errno: ECONNREFUSED), "states: \(states.values)")
        #expect(states.values.filter { if case .waiting = $0 { return true }; return false }.count == 1, "\(states.values)")
    }
}
