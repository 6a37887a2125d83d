import Dispatch
import Foundation
import Testing
@testable import WireTransport

/// The lengths a receive asks for are clamped, not trusted: a minimum below 0 counts as 0 (and a
/// stream receive still waits for one byte), a maximum below 1 counts as 1.
@Suite struct ReceiveLengthTests {
    @Test func aStreamReceiveWithNoPositiveMaximumDeliversExactlyOneByte() throws {
        let (server, client, peer) = try connectedPair(.tcp)
        defer { server.stop(); client.cancel() }
        peer.send(bytes: Array("abc".utf8))
        let first = receiveBlocking(client, min: -5, max: 0)
        #expect(first?.0 == Data("a".utf8) && first?.1 == false && first?.2 == nil, "\(String(describing: first))")
        let rest = receiveBlocking(client, min: 2, max: -1)
        #expect(rest?.0 == Data("b".utf8), "a maximum of -1 is 1 too: \(String(describing: rest))")
        #expect(receiveBlocking(client, min: 0, max: 10)?.0 == Data("c".utf8))
    }

    @Test func aReceiveTakesAtMostItsMaximumAndLeavesTheRestBuffered() throws {
        let (server, client, peer) = try connectedPair(.tcp)
        defer { server.stop(); client.cancel() }
        let sent = Recorder<WireError?>()
        peer.send(bytes: pattern(10)) { sent.append($0) }
        #expect(sent.wait { !$0.isEmpty })
        // At least all ten bytes before delivering anything, at most four of them per receive.
        let head = receiveBlocking(client, min: 10, max: 4)
        #expect(head?.0.map { [UInt8]($0) } == Array(pattern(10)[0 ..< 4]), "\(String(describing: head))")
        #expect(client.queue.sync { client.inbound.count } == 6, "the other six stay buffered")
        let tail = receiveBlocking(client, min: 6, max: 6)
        #expect(tail?.0.map { [UInt8]($0) } == Array(pattern(10)[4...]))
    }
}
