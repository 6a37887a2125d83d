import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// An owner in the reference's style: it holds the connection, the handlers capture it weakly.
final class Owner: @unchecked Sendable {
    let connection: Connection
    let states = Recorder<ConnectionState>()
    init(port: UInt16) {
        connection = Connection(host: "127.0.0.1", port: port, using: .tcp)
        connection.stateUpdateHandler = { [weak self] state in self?.states.append(state) }
    }
    func start() {
        connection.start(queue: DispatchQueue(label: "owner"))
        connection.receive(minimumIncompleteLength: 1, maximumLength: 10) { [weak self] _, _, _ in _ = self }
    }
}

@Suite("Lifetime", .serialized)
struct LifetimeTests {
    private func released(_ check: () -> Bool) -> Bool {
        for _ in 0 ..< 200 { if check() { return true }; Thread.sleep(forTimeInterval: 0.01) }
        return false
    }

    @Test func cancelledConnectionAndItsOwnerAreReleased() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        weak var weakOwner: Owner?
        weak var weakConnection: Connection?
        do {
            let owner = Owner(port: server.port)
            weakOwner = owner
            weakConnection = owner.connection
            owner.start()
            #expect(owner.states.waitFor(.ready))
            owner.connection.cancel()
            #expect(owner.states.waitFor(.cancelled))
        }
        #expect(released { weakOwner == nil && weakConnection == nil }, "no retain cycle keeps them alive")
    }

    @Test func aHandlerSetAfterCancelIsDroppedSoItsCaptureCannotKeepTheConnectionAlive() {
        weak var weakConnection: Connection?
        do {
            let connection = Connection(host: "127.0.0.1", port: 9, using: .tcp)
            weakConnection = connection
            let states = Recorder<ConnectionState>()
            connection.stateUpdateHandler = { states.append($0) }
            connection.start(queue: DispatchQueue(label: "late-handler"))
            connection.cancel()
            #expect(states.waitFor(.cancelled))
            // Captures the connection strongly: kept, it would be a cycle nothing breaks any more.
            connection.stateUpdateHandler = { _ in _ = connection }
            #expect(connection.stateUpdateHandler == nil)
        }
        #expect(released { weakConnection == nil })
    }

    /// An accepted socket has one owner: the connection until `start`, its channel after.
    @Test func aStartedAcceptedConnectionHandsItsSocketToItsChannel() throws {
        let (server, client, peer) = try connectedPair(.tcp)
        defer { server.stop(); client.cancel() }
        // The test server hands the connection over before its `start` has run on the queue.
        #expect(released { peer.currentState == .ready }, "the accepted connection never became ready")
        #expect(peer.queue.sync { peer.acceptedSocket == nil }, "the connection still holds the socket its channel owns")
    }

    @Test func handlersSetOnACancelledListenerAreDropped() throws {
        let server = try TestServer(.tcp)
        server.stop()
        #expect(server.states.wait { $0.contains(.cancelled) })
        let listener = server.listener
        listener.stateUpdateHandler = { _ in _ = listener }
        listener.newConnectionHandler = { _ in _ = listener }
        listener.validationHandler = { _ in _ = listener; return true }
        #expect(listener.stateUpdateHandler == nil && listener.newConnectionHandler == nil && listener.validationHandler == nil)
    }

    @Test func readyConnectionDroppedByItsOwnerIsReleasedAndClosed() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        weak var weakConnection: Connection?
        do {
            let owner = Owner(port: server.port)
            weakConnection = owner.connection
            owner.start()
            #expect(owner.states.waitFor(.ready))
        }
        #expect(released { weakConnection == nil })
        #expect(server.accepted.wait { !$0.isEmpty })
        let r = receiveBlocking(server.accepted.values[0], min: 1, max: 1)
        #expect(r?.1 == true, "releasing a connection closes its socket; the peer sees end of stream")
    }

    @Test func aHandleDroppedOpenClosesItsSocketAndCountsTheLeak() throws {
        // The safety net for an owner that forgot to close: the descriptor is closed anyway (the
        // peer of a socket pair sees end of stream) and counted, so a test can notice.
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { Glibc.close(pair[1]) }
        let before = SocketHandle.leakedCloses
        do { _ = SocketHandle(taking: pair[0]) }
        #expect(SocketHandle.leakedCloses == before + 1)
        var byte: UInt8 = 0
        #expect(Glibc.recv(pair[1], &byte, 1, 0) == 0, "the dropped handle's socket is closed")
        SocketHandle.leakedCloses = before  // leaked on purpose; the suite's other tests expect none
    }

    @Test func cancelledListenerIsReleased() throws {
        weak var weakListener: Listener?
        do {
            let server = try TestServer(.tcp)
            weakListener = server.listener
            server.stop()
            #expect(server.states.wait { $0.contains(.cancelled) })
        }
        #expect(released { weakListener == nil })
        #expect(SocketHandle.leakedCloses == 0, "every descriptor was closed by its owner")
    }
}
