import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// An established connection with nothing to send and no receive pending still learns that its
/// peer reset it: the read stays armed while open, so the reset fails the connection at once.
@Suite("Idle reset")
struct IdleResetTests {
    @Test func idleConnectionWithoutAReceiveFailsWhenThePeerResetsIt() throws {
        let raw = try RawListener()
        defer { raw.close() }
        let (client, states) = makeClient(.tcp, port: raw.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        let peer = try #require(try raw.acceptOne())
        try raw.reset(peer)
        #expect(states.waitForFailure() == .posix(call: "recv", errno: ECONNRESET), "states: \(states.values)")
    }

    /// Bytes that arrived before the reset are not what the reset is about: a receive issued after
    /// the failure gets the failure (the connection is terminal), not a hang.
    @Test func receiveAfterAnIdleResetCompletesWithTheError() throws {
        let raw = try RawListener()
        defer { raw.close() }
        let (client, states) = makeClient(.tcp, port: raw.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        let peer = try #require(try raw.acceptOne())
        try raw.reset(peer)
        #expect(states.waitForFailure() != nil)
        let r = receiveBlocking(client, min: 1, max: 10)
        #expect(r?.2 == .posix(call: "recv", errno: ECONNRESET), "\(String(describing: r))")
    }

    /// The peer closing (FIN) while idle is not a failure: the bytes it sent before stay readable
    /// and the receive sees the end of the stream.
    @Test func idlePeerCloseKeepsItsBytesAndEndsTheStream() throws {
        let raw = try RawListener()
        defer { raw.close() }
        let (client, states) = makeClient(.tcp, port: raw.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        let peer = try #require(try raw.acceptOne())
        _ = try peer.withDescriptor { fd throws(SystemError) in try Sys.send(fd, Array("bye".utf8)) }
        peer.close()
        let r = receiveBlocking(client, min: 3, max: 10)
        #expect(r?.0 == Data("bye".utf8))
        if r?.1 == false {  // the end of the stream may come with the bytes or after them
            let end = receiveBlocking(client, min: 1, max: 10)
            #expect(end?.0 == nil && end?.1 == true, "\(String(describing: end))")
        }
        #expect(!states.values.contains { if case .failed = $0 { return true }; return false }, "\(states.values)")
    }
}
