import Glibc
import Testing
@testable import WireTransport

/// A datagram error that surfaces on a send (the ICMP port-unreachable an earlier datagram drew,
/// when no receive is pending to take it) fails that one send; the next one goes out.
@Suite struct UDPSendErrorTests {
    /// Sends `bytes` and waits for the completion: `.some(nil)` sent, `.some(error)` failed, nil
    /// when the completion never ran.
    static func send(_ client: Connection, _ bytes: [UInt8]) -> WireError?? {
        let done = Recorder<WireError?>()
        client.send(bytes: bytes) { done.append($0) }
        guard done.wait(until: { !$0.isEmpty }) else { return nil }
        return done.values[0]
    }

    @Test func aRefusedDatagramFailsTheNextSendAloneAndTheOneAfterGoesOut() throws {
        let (client, states) = makeClient(.udp, port: try unusedPort(datagram: true))  // nobody listens
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        // The refusal comes back a moment after a datagram leaves: send until a send reports it.
        var outcomes: [WireError?] = []
        for _ in 0 ..< 50 {
            let outcome = try #require(Self.send(client, [1]), "a send's completion never ran")
            outcomes.append(outcome)
            if outcome != nil { break }
            usleep(10_000)
        }
        #expect(outcomes.count > 1 && outcomes.dropLast().allSatisfy { $0 == nil }, "\(outcomes)")
        #expect(outcomes.last == .posix(call: "send", errno: ECONNREFUSED), "\(outcomes)")
        let next = try #require(Self.send(client, [2]), "a send's completion never ran")
        #expect(next == nil, "the refusal was reported once")
        #expect(states.values.last == .ready, "the connection carries on: \(states.values)")
    }
}
