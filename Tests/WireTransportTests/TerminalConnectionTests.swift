import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// What a connection does with work that is pending when it ends, or that comes after: every
/// completion runs once with the terminal error, nothing stays queued, the handlers are let go,
/// and the owner's termination hook runs exactly once. Every wait is bounded.
@Suite struct TerminalConnectionTests {
    @Test func sendsAndReceivesQueuedBeforeStartFailWithCancelledAndLeaveNothingQueued() {
        let connection = Connection(host: "127.0.0.1", port: 9, using: .tcp)
        let sent = Recorder<WireError?>(), received = Recorder<ReceiveResult>()
        connection.send(bytes: [1, 2, 3]) { sent.append($0) }
        connection.send(content: Data([4]), contentContext: .defaultMessage) { sent.append($0) }
        connection.receive(minimumIncompleteLength: 1, maximumLength: 8) { received.append(ReceiveResult(data: $0, isComplete: $1, error: $2)) }
        #expect(connection.queue.sync { connection.sends.count == 2 && connection.receives.count == 1 }, "queued until the connection is ready")
        connection.cancel()
        #expect(sent.wait { $0.count == 2 } && sent.values == [.cancelled, .cancelled], "\(sent.values)")
        #expect(received.wait { !$0.isEmpty })
        let receive = received.values.first
        #expect(receive?.data == nil && receive?.isComplete == false && receive?.error == .cancelled, "\(received.values)")
        #expect(connection.queue.sync { connection.sends.isEmpty && connection.receives.isEmpty })
    }

    @Test func aFailedConnectionAnswersLaterSendsAndReceivesWithItsFailure() {
        let (connection, states) = makeClient(.tcp, resolvingTo: [])
        defer { connection.cancel() }
        let failure = WireError.resolution(host: "dual-stack.test", reason: "no address")
        #expect(states.waitForFailure() == failure, "\(states.values)")
        let sent = Recorder<WireError?>()
        connection.send(bytes: [1]) { sent.append($0) }
        #expect(sent.wait { !$0.isEmpty } && sent.values == [failure], "\(sent.values)")
        let received = receiveBlocking(connection, min: 1, max: 1)
        #expect(received?.0 == nil && received?.1 == false && received?.2 == failure, "\(String(describing: received))")
        #expect(connection.queue.sync { connection.sends.isEmpty && connection.receives.isEmpty }, "nothing queued on a failed connection")
    }

    @Test func aCancelledConnectionLetsGoOfEveryHandlerSetBeforeTheCancel() {
        let connection = Connection(host: "127.0.0.1", port: 9, using: .tcp)
        let states = Recorder<ConnectionState>()
        connection.stateUpdateHandler = { states.append($0) }
        connection.pathUpdateHandler = { _ in }
        connection.viabilityUpdateHandler = { _ in }
        connection.betterPathUpdateHandler = { _ in }
        connection.start(queue: DispatchQueue(label: "terminal-handlers"))
        connection.cancel()
        #expect(states.waitFor(.cancelled), "\(states.values)")
        #expect(connection.stateUpdateHandler == nil)
        #expect(connection.pathUpdateHandler == nil)
        #expect(connection.viabilityUpdateHandler == nil)
        #expect(connection.betterPathUpdateHandler == nil)
    }

    /// A listener's per-peer UDP connection built by hand (its table's channel is a socket pair
    /// end): the termination hook counts its calls.
    private func udpPeer(_ label: String, hookCalls: Recorder<Int>) throws -> (Connection, IOChannel, DispatchQueue, Int32) {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0, &pair) == 0)
        let queue = DispatchQueue(label: label)
        let channel = queue.sync { IOChannel(socket: SocketHandle(taking: pair[0]), queue: queue) }
        let table = UDPPeerTable(channel: channel, queue: queue)
        let connection = Connection(udpPeer: loopback("127.0.0.1", port: 9), table: table) { hookCalls.append(1) }
        return (connection, channel, queue, pair[1])
    }

    @Test func theTerminationHookRunsOnceAtTheEndAndNotAgainWhenTheConnectionIsReleased() throws {
        let hookCalls = Recorder<Int>()
        weak var released: Connection?
        let (channel, queue, peer): (IOChannel, DispatchQueue, Int32)
        do {
            let (connection, c, q, p) = try udpPeer("terminal-hook", hookCalls: hookCalls)
            (channel, queue, peer) = (c, q, p)
            released = connection
            let states = Recorder<ConnectionState>()
            connection.stateUpdateHandler = { states.append($0) }
            connection.start(queue: DispatchQueue(label: "terminal-hook-user"))
            #expect(states.waitFor(.ready))
            #expect(hookCalls.values.isEmpty, "a live connection has not terminated")
            connection.cancel()
            #expect(states.waitFor(.cancelled))
            #expect(hookCalls.wait { !$0.isEmpty })
        }
        defer { queue.sync { channel.close() }; Glibc.close(peer) }
        #expect(Recorder<Int>.poll { released == nil }, "the cancelled connection is released")
        #expect(hookCalls.values.count == 1, "the hook ran \(hookCalls.values.count) times")
    }

    @Test func aPerPeerConnectionHoldsAtMost1024DatagramsBeforeItStarts() throws {
        // The listener feeds datagrams before the owner starts the connection; past 1,024 unread
        // ones the rest are dropped, as UDP may.
        let hookCalls = Recorder<Int>()
        let (connection, channel, queue, peer) = try udpPeer("datagram-cap", hookCalls: hookCalls)
        defer { connection.cancel(); queue.sync { channel.close() }; Glibc.close(peer) }
        for i in 0 ..< 1_030 { connection.enqueueDatagram([UInt8(truncatingIfNeeded: i)]) }
        let held = connection.queue.sync { connection.datagrams }
        #expect(held.count == 1_024)
        #expect(held.first == [0] && held.last == [UInt8(truncatingIfNeeded: 1_023)], "the first 1,024 are kept, in order")
    }
}
