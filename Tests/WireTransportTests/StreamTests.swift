import Dispatch
import Foundation
import Testing
@testable import WireTransport

@Suite("Send and receive")
struct StreamTests {
    @Test func exactLengthReceiveAcrossSplitWrites() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let (client, states) = makeClient(.tcp, port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = server.accepted.values[0]
        let payload = pattern(1000)
        // The server writes 1000 bytes as 1 + 2 + 3 + ... byte pieces (each its own send).
        var offset = 0, size = 1
        while offset < payload.count {
            let end = min(payload.count, offset + size)
            peer.send(bytes: Array(payload[offset ..< end]))
            offset = end
            size += 1
        }
        var received: [UInt8] = []
        for want in [10, 1, 300, 689] {
            let r = receiveBlocking(client, min: want, max: want)
            #expect(r?.0?.count == want, "exactly \(want) bytes, whatever the split")
            #expect(r?.1 == false)
            received += r?.0.map { [UInt8]($0) } ?? []
        }
        #expect(received == payload)
        peer.cancel()  // end of stream: the next receive says complete with no data
        let end = receiveBlocking(client, min: 1, max: 10)
        #expect(end?.0 == nil && end?.1 == true && end?.2 == nil)
    }

    @Test func isCompleteComesWithTheLastBytes() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let (client, states) = makeClient(.tcp, port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = server.accepted.values[0]
        let sent = Recorder<Bool>()
        peer.send(bytes: pattern(5)) { _ in sent.append(true) }
        #expect(sent.wait { !$0.isEmpty })
        peer.cancel()
        Thread.sleep(forTimeInterval: 0.05)
        let r = receiveBlocking(client, min: 10, max: 10)
        #expect(r?.0 == Data(pattern(5)) && r?.1 == true, "a short tail at end of stream is delivered, marked complete")
    }

    /// Pacing: a send's completion means the kernel took the bytes. Against a peer that reads
    /// nothing, a send larger than both socket buffers cannot complete; once the peer reads, it does.
    @Test func sendCompletesOnlyWhenTheKernelTookTheBytes() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let (client, states) = makeClient(.tcp, port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = server.accepted.values[0]
        let big = [UInt8](repeating: 0x5a, count: 64 << 20)
        let done = Recorder<WireError?>()
        client.send(bytes: big) { done.append($0) }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(done.values.isEmpty, "64 MiB cannot fit in loopback socket buffers while the peer reads nothing")
        var total = 0
        while total < big.count {
            guard let r = receiveBlocking(peer, min: 1, max: 1 << 20), let d = r.0 else { break }
            total += d.count
        }
        #expect(total == big.count)
        #expect(done.wait { !$0.isEmpty })
        #expect(done.values.first! == nil)
    }

    /// The pattern from the reference: each chunk is sent from the previous chunk's completion.
    @Test func chunksSentFromCompletionsArriveInOrder() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let (client, states) = makeClient(.tcp, port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = server.accepted.values[0]
        let chunks = (0 ..< 50).map { pattern(1000 + $0, seed: UInt8($0)) }
        let completions = Recorder<Int>()
        @Sendable func sendChunk(_ i: Int) {
            guard i < chunks.count else { return }
            client.send(bytes: chunks[i]) { error in
                completions.append(error == nil ? i : -1)
                sendChunk(i + 1)
            }
        }
        sendChunk(0)
        let expected = chunks.flatMap { $0 }
        let r = receiveBlocking(peer, min: expected.count, max: expected.count)
        #expect(r?.0.map { [UInt8]($0) } == expected)
        #expect(completions.wait { $0.count == chunks.count })
        #expect(completions.values == Array(0 ..< chunks.count))
    }
}
