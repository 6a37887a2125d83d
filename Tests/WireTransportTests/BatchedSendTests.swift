import Dispatch
import Foundation
import Testing
@testable import WireTransport

/// Sends issued inside `batch` on a stream wait until the block ends, then leave together, in
/// order; nested batches flush only when the outermost one ends.
@Suite struct BatchedSendTests {
    @Test func streamSendsInsideABatchWaitForItsEndThenArriveInOrder() throws {
        let (server, client, peer) = try connectedPair(.tcp)
        defer { server.stop(); client.cancel() }
        let completions = Recorder<WireError?>()
        var heldInside = -1, heldInNested = -1
        client.batch {
            client.send(bytes: Array("one,".utf8)) { completions.append($0) }
            client.batch {
                client.send(bytes: Array("two,".utf8)) { completions.append($0) }
                heldInNested = client.queue.sync { client.sends.count }
            }
            client.send(bytes: Array("three".utf8)) { completions.append($0) }
            // Every send above has reached the queue, and none was written.
            heldInside = client.queue.sync { client.sends.count }
        }
        #expect(heldInNested == 2 && heldInside == 3, "held: \(heldInNested) in the nested block, \(heldInside) before the end")
        #expect(completions.wait { $0.count == 3 } && completions.values == [nil, nil, nil], "\(completions.values)")
        #expect(client.queue.sync { client.batchDepth == 0 && client.sends.isEmpty })
        #expect(receiveBlocking(peer, min: 13, max: 13)?.0 == Data("one,two,three".utf8))
    }
}
