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
}
