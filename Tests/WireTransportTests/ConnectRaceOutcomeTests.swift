import Dispatch
import Glibc
import Testing
@testable import WireTransport

/// What a connect race hands its completion when no address connects: the last attempt's error,
/// or, with nothing to try, a resolution error; and nothing at all once cancelled.
@Suite struct ConnectRaceOutcomeTests {
    /// Runs a race over `addresses` on a queue of its own and returns its outcome (bounded wait).
    private func outcome(of addresses: [SocketAddress],
                         prepare: @escaping (Int32, Int32) throws(WireError) -> Void = { _, _ in }) -> Result<SocketAddress, WireError>? {
        let queue = DispatchQueue(label: "connect-race-outcome")
        let outcomes = Recorder<Result<SocketAddress, WireError>>()
        let race = ConnectRace(addresses: addresses, datagram: false, attemptDelay: 0.05, queue: queue, prepare: prepare) { outcome in
            switch outcome {
            case .success(let winner):
                winner.channel.close()
                outcomes.append(.success(winner.address))
            case .failure(let error): outcomes.append(.failure(error))
            }
        }
        queue.sync { race.start() }
        defer { queue.sync { race.cancel() } }
        guard outcomes.wait(until: { !$0.isEmpty }) else { return nil }
        queue.sync {}
        #expect(outcomes.values.count == 1, "the completion ran once: \(outcomes.values)")
        return outcomes.values.first
    }

    @Test func aRaceWithNoAddressFailsAsUnresolved() {
        #expect(outcome(of: []) == .failure(.resolution(host: "?", reason: "no address")))
    }

    @Test func anAddressWhosePrepareThrowsIsSkippedAndItsErrorIsTheRacesError() throws {
        let port = try unusedPort()
        let refusal = WireError.invalidArgument("prepare refused this socket")
        let result = outcome(of: [loopback("127.0.0.1", port: port)]) { _, _ throws(WireError) in throw refusal }
        #expect(result == .failure(refusal), "\(String(describing: result))")
    }

    @Test func aRefusedAddressFailsTheRaceWithTheConnectError() throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let result = outcome(of: [loopback("127.0.0.1", port: refusing.port)])
        #expect(result == .failure(.posix(call: "connect", errno: ECONNREFUSED)), "\(String(describing: result))")
    }

    @Test func aCancelledRaceClosesItsPendingSocketAndNeverCallsItsCompletion() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let queue = DispatchQueue(label: "connect-race-cancelled")
        let outcomes = Recorder<Bool>()
        let race = ConnectRace(addresses: [loopback("127.0.0.1", port: server.port)], datagram: false, attemptDelay: 0.05,
                               queue: queue) { _ in outcomes.append(true) }
        queue.sync {
            race.start()  // a non-blocking connect: pending until its writability is handled on this queue
            race.cancel()
        }
        // The kernel completed the handshake; the listener's side then reads the end of the stream
        // the cancel closed.
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = try #require(server.accepted.values.first)
        let end = receiveBlocking(peer, min: 1, max: 1)
        #expect(end?.0 == nil && end?.1 == true, "the race's socket was closed: \(String(describing: end))")
        queue.sync {}
        #expect(outcomes.values.isEmpty, "no completion after cancel")
    }
}
