import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// TCPOptions reach the socket of both ends: the connecting side and the listener's accepted
/// connections (which run the listener's parameters). Read back with getsockopt on the
/// connection's own queue, where its channel lives.
@Suite("TCP options")
struct TCPOptionsTests {
    private func option(_ connection: Connection, _ level: Int32, _ name: Int32) -> Int32? {
        connection.queue.sync {
            try? connection.channel?.socket.withDescriptor { fd throws(SystemError) -> Int32 in
                var value: Int32 = -1
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(fd, level, name, &value, &length) == 0 else { throw SystemError(call: "getsockopt", errno: errno) }
                return value
            }
        }
    }

    @Test func byDefaultNagleIsOffAndKeepaliveIsOff() throws {
        let (server, client, _) = try connectedPair(.tcp)
        defer { server.stop(); client.cancel() }
        #expect(option(client, Int32(IPPROTO_TCP), TCP_NODELAY) == 1)
        #expect(option(client, SOL_SOCKET, SO_KEEPALIVE) == 0)
    }

    @Test func keepaliveAndNagleSettingsReachTheClientAndTheAcceptedSocket() throws {
        let tcp = TCPOptions(noDelay: false, enableKeepalive: true, keepaliveIdle: 30, keepaliveInterval: 5, keepaliveCount: 3)
        let parameters = Parameters(tcp: tcp)
        let (server, client, accepted) = try connectedPair(parameters)
        defer { server.stop(); client.cancel() }
        // The accepted connection applies its options once started; wait until it is ready.
        for _ in 0 ..< 500 where accepted.currentState != .ready { Thread.sleep(forTimeInterval: 0.01) }
        for (side, connection) in [("client", client), ("accepted", accepted)] {
            #expect(option(connection, Int32(IPPROTO_TCP), TCP_NODELAY) == 0, "\(side)")
            #expect(option(connection, SOL_SOCKET, SO_KEEPALIVE) == 1, "\(side)")
            #expect(option(connection, Int32(IPPROTO_TCP), TCP_KEEPIDLE) == 30, "\(side)")
            #expect(option(connection, Int32(IPPROTO_TCP), TCP_KEEPINTVL) == 5, "\(side)")
            #expect(option(connection, Int32(IPPROTO_TCP), TCP_KEEPCNT) == 3, "\(side)")
        }
    }

    @Test func aKeepaliveValueTheKernelRefusesFailsTheConnectionNamingTheCall() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        // Linux caps TCP_KEEPIDLE at 32,767 s.
        let (client, states) = makeClient(Parameters(tcp: TCPOptions(enableKeepalive: true, keepaliveIdle: 100_000)), port: server.port)
        defer { client.cancel() }
        #expect(states.waitForFailure() == .posix(call: "setsockopt", errno: EINVAL))
    }
}
