import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

@Suite("UDP")
struct UDPTests {
    @Test func batchOfAHundredDatagramsArrivesWhole() throws {
        let server = try TestServer(.udp)
        defer { server.stop() }
        let (client, states) = makeClient(.udp, port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        let datagrams = (0 ..< 100).map { pattern(20 + $0, seed: UInt8($0)) }
        let completions = Recorder<WireError?>()
        client.batch {
            for d in datagrams { client.send(bytes: d) { completions.append($0) } }
        }
        #expect(completions.wait { $0.count == 100 })
        #expect(completions.values.allSatisfy { $0 == nil })
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = server.accepted.values[0]
        var got: [[UInt8]] = []
        for _ in 0 ..< 100 {
            guard let r = receiveBlocking(peer, min: 1, max: 65536), let d = r.0 else { break }
            #expect(r.1, "each datagram is a complete message")
            got.append([UInt8](d))
        }
        #expect(got == datagrams, "all 100 datagrams, in order, intact")
        #expect(server.accepted.values.count == 1, "one connection per peer address")
        // And back: the listener's per-peer connection answers through the shared socket.
        peer.send(bytes: [1, 2, 3])
        #expect(receiveBlocking(client, min: 1, max: 100)?.0 == Data([1, 2, 3]))
    }

    @Test func datagramLongerThanTheReceiveMaximumIsReportedNotSplit() throws {
        let server = try TestServer(.udp)
        defer { server.stop() }
        let (client, states) = makeClient(.udp, port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        #expect(server.accepted.wait(timeout: 0.1) { !$0.isEmpty } == false)
        client.send(bytes: [0])
        #expect(server.accepted.wait { !$0.isEmpty })
        #expect(receiveBlocking(server.accepted.values[0], min: 1, max: 10)?.0 == Data([0]))
        server.accepted.values[0].send(bytes: pattern(500))
        let r = receiveBlocking(client, min: 1, max: 100)
        #expect(r?.2 == .datagramTruncated(length: 101))
        let (data, complete, _) = try #require(r)
        #expect(data == nil && !complete, "a refused datagram delivers nothing and completes no message")
    }

    @Test func aRefusedDatagramFailsOneReceiveAndTheConnectionCarriesOn() throws {
        // A loopback port nobody listens on: bound once to learn a free number, then closed.
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(probe >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0 }
        }
        close(probe)
        try #require(bound)
        let (client, states) = makeClient(.udp, port: UInt16(bigEndian: address.sin_port))
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        client.send(bytes: [1])
        // The ICMP port-unreachable comes back as ECONNREFUSED on the next read: one receive fails.
        let refused = receiveBlocking(client, min: 1, max: 10)
        #expect(refused?.2 == .posix(call: "recvmmsg", errno: ECONNREFUSED), "\(String(describing: refused))")
        #expect(refused?.1 == false, "an ICMP error ends one receive, not the flow")
        #expect(states.values.last == .ready, "the connection carries on: \(states.values)")
    }

    @Test func cancellingEndsAPendingReceiveWithCancelledNotWithEndOfStream() throws {
        let server = try TestServer(.udp)
        defer { server.stop() }
        let (client, states) = makeClient(.udp, port: server.port)
        #expect(states.waitFor(.ready))
        let got = Recorder<ReceiveResult>()
        client.receive(minimumIncompleteLength: 1, maximumLength: 10) { data, complete, error in
            got.append(ReceiveResult(data: data, isComplete: complete, error: error))
        }
        client.cancel()
        #expect(got.wait { !$0.isEmpty })
        #expect(got.values.first?.data == nil && got.values.first?.isComplete == false && got.values.first?.error == .cancelled,
                "\(got.values)")
    }

    @Test func aReceiveIssuedBeforeAnAcceptedPeerStartsIsServedOnStart() throws {
        // The listener hands a per-peer connection over before its owner starts it; a receive
        // queued in between must be served by start (it once waited forever: CI flake of the test
        // above, where the handler appends the connection before starting it).
        let server = try TestServer(.udp, startConnections: false)
        defer { server.stop() }
        let (client, states) = makeClient(.udp, port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        client.send(bytes: [7])
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = server.accepted.values[0]
        let got = Recorder<ReceiveResult>()
        peer.receive(minimumIncompleteLength: 1, maximumLength: 10) { data, complete, error in
            got.append(ReceiveResult(data: data, isComplete: complete, error: error))
        }
        peer.start(queue: server.queue)
        #expect(got.wait { !$0.isEmpty })
        #expect(got.values.first?.data == Data([7]))
    }

    /// A UDP listener admits one connection per source address up to its limit: a new peer past
    /// the limit is dropped and counted, a known peer's later datagrams reach its connection
    /// without counting again, and a cancelled peer's slot goes to the next new one.
    @Test func aUDPListenerCountsPeersAndRefusesNewOnesPastItsLimit() throws {
        let server = try TestServer(.udp, limit: 2)
        defer { server.stop() }
        var clients: [Connection] = []
        func newPeer(sending byte: UInt8) -> Connection {
            let (client, states) = makeClient(.udp, port: server.port)
            #expect(states.waitFor(.ready))
            client.send(bytes: [byte])
            clients.append(client)
            return client
        }
        defer { for c in clients { c.cancel() } }
        let first = newPeer(sending: 1)
        _ = newPeer(sending: 2)
        #expect(server.accepted.wait { $0.count == 2 })
        _ = newPeer(sending: 3)
        #expect(Recorder<Int>.poll(timeout: 2) { server.listener.refusedCount == 1 })
        first.send(bytes: [4])
        let firstPeer = try #require(server.accepted.values.first { connection in
            receiveBlocking(connection, min: 1, max: 1)?.0 == Data([1])
        })
        #expect(receiveBlocking(firstPeer, min: 1, max: 1)?.0 == Data([4]), "a known peer's datagram reaches its connection")
        #expect(server.listener.acceptedCount == 2 && server.listener.activeConnectionCount == 2)
        #expect(server.accepted.values.count == 2)
        firstPeer.cancel()
        #expect(Recorder<Int>.poll(timeout: 2) { server.listener.activeConnectionCount == 1 })
        _ = newPeer(sending: 5)
        #expect(server.accepted.wait { $0.count == 3 })
        #expect(server.listener.acceptedCount == 3 && server.listener.refusedCount == 1)
    }
}
