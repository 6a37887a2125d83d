import Dispatch
import Foundation
import Testing
@testable import WireTransport

/// A final-message send closes this side's write half only: the peer's last receive gets the bytes
/// with `isComplete`, the peer can still answer, and a later send is refused.
@Suite("Final message")
struct FinalMessageTests {
    private func halfClose(_ parameters: Parameters, client clientParameters: Parameters) throws {
        let (server, client, peer) = try connectedPair(parameters, client: clientParameters)
        defer { server.stop(); client.cancel() }

        let sent = Recorder<WireError?>()
        client.send(content: Data("bye".utf8), contentContext: .finalMessage) { sent.append($0) }
        #expect(sent.wait { !$0.isEmpty } && sent.values[0] == nil, "the final send completes: \(sent.values)")
        // More than the three bytes asked for: only the end of the stream can complete the receive.
        let last = receiveBlocking(peer, min: 4, max: 100)
        #expect(last?.0 == Data("bye".utf8) && last?.1 == true, "the peer reads the bytes, then end of stream: \(String(describing: last))")

        // The client's read side is still open.
        peer.send(bytes: Array("ok".utf8))
        #expect(receiveBlocking(client, min: 2, max: 2)?.0 == Data("ok".utf8))

        let late = Recorder<WireError?>()
        client.send(bytes: [1]) { late.append($0) }
        #expect(late.wait { !$0.isEmpty } && late.values[0] == .invalidArgument("send after the final message"))
        #expect(client.currentState == .ready)
    }

    @Test func overTCPThePeerReadsEndOfStreamAndCanStillAnswer() throws {
        try halfClose(.tcp, client: .tcp)
    }

    @Test func overTLSThePeerReadsEndOfStreamAndCanStillAnswer() throws {
        let pki = try TestPKI.shared.get()
        try halfClose(.tls(pki.serverOptions), client: .tls(TLSOptions(trustedCAFile: pki.caCert)))
    }

    @Test func anEmptyFinalMessageOnlyClosesTheWriteSide() throws {
        let (server, client, peer) = try connectedPair(.tcp)
        defer { server.stop(); client.cancel() }
        client.send(content: nil, contentContext: .finalMessage)
        let end = receiveBlocking(peer, min: 1, max: 10)
        #expect(end?.0 == nil && end?.1 == true && end?.2 == nil, "\(String(describing: end))")
    }

    /// UDP has no write side to close: a final message is one more datagram, and later sends go
    /// out as before.
    @Test func overUDPAFinalMessageIsAnOrdinaryDatagramAndLaterSendsStillGoOut() throws {
        // A UDP listener makes the peer's connection at its first datagram.
        let server = try TestServer(.udp)
        let (client, states) = makeClient(.udp, port: server.port)
        defer { server.stop(); client.cancel() }
        #expect(states.waitFor(.ready))
        client.send(bytes: [0])
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = try #require(server.accepted.values.first)
        #expect(receiveBlocking(peer, min: 1, max: 10)?.0 == Data([0]))
        let sent = Recorder<WireError?>()
        client.send(content: Data("last".utf8), contentContext: .finalMessage) { sent.append($0) }
        client.send(bytes: Array("more".utf8)) { sent.append($0) }
        #expect(sent.wait { $0.count == 2 } && sent.values == [nil, nil], "\(sent.values)")
        #expect(client.queue.sync { !client.finalMessageQueued })
        let first = receiveBlocking(peer, min: 1, max: 10), second = receiveBlocking(peer, min: 1, max: 10)
        #expect(first?.0 == Data("last".utf8) && first?.1 == true, "\(String(describing: first))")
        #expect(second?.0 == Data("more".utf8) && second?.1 == true, "\(String(describing: second))")
    }
}
