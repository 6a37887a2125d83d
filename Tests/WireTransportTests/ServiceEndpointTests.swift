import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// A service endpoint whose resolutions the test scripts: each `resolve` is recorded and answers
/// `answer` after 10 ms (nil: never, until the test calls `answerPending`). Counts cancellations.
final class ScriptedServiceEndpoint: ServiceEndpoint, @unchecked Sendable {
    final class Resolution: ServiceResolution, @unchecked Sendable {
        private let lock = NSLock()
        private var cancels = 0
        func cancel() { lock.lock(); cancels += 1; lock.unlock() }
        var cancelCount: Int { lock.lock(); defer { lock.unlock() }; return cancels }
    }

    let serviceName: String
    private let answer: Result<ResolvedServiceEndpoint, WireError>?
    private let lock = NSLock()
    private var started: [Resolution] = []
    private var completions: [@Sendable (Result<ResolvedServiceEndpoint, WireError>) -> Void] = []

    init(_ name: String, answer: Result<ResolvedServiceEndpoint, WireError>?) {
        serviceName = name
        self.answer = answer
    }

    func resolve(completion: @escaping @Sendable (Result<ResolvedServiceEndpoint, WireError>) -> Void) -> any ServiceResolution {
        let resolution = Resolution()
        lock.lock()
        started.append(resolution)
        completions.append(completion)
        lock.unlock()
        if let answer { DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { completion(answer) } }
        return resolution
    }

    var resolutions: [Resolution] { lock.lock(); defer { lock.unlock() }; return started }

    /// Answers every resolution started so far with `outcome` (whether or not it was cancelled).
    func answerPending(_ outcome: Result<ResolvedServiceEndpoint, WireError>) {
        lock.lock()
        let pending = completions
        lock.unlock()
        for completion in pending { completion(outcome) }
    }
}

@Suite("Connections to service endpoints")
struct ServiceEndpointTests {
    let name = "room._wireproof-test._tcp.local."

    func start(_ endpoint: ScriptedServiceEndpoint, _ parameters: Parameters = .tcp,
               retry: RetryPolicy = RetryPolicy(initialDelay: 0.02, maximumDelay: 0.1)) -> (Connection, Recorder<ConnectionState>) {
        let connection = Connection(to: endpoint, using: parameters)
        connection.retryPolicy = retry
        let states = Recorder<ConnectionState>()
        connection.stateUpdateHandler = { states.append($0) }
        connection.start(queue: DispatchQueue(label: "test.client"))
        return (connection, states)
    }

    /// The answer's addresses are raced like a host's: the first refuses, the second is served.
    @Test func serviceResolvedWhilePreparingConnectsToTheAddressesItAnswered() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let refused = refusing.port
        let endpoint = ScriptedServiceEndpoint(name, answer: .success(ResolvedServiceEndpoint(
            targetHost: "box.local.",
            addresses: [try SocketAddress(numericHost: "127.0.0.1", port: refused), try SocketAddress(numericHost: "127.0.0.1", port: server.port)])))
        let (connection, states) = start(endpoint)
        defer { connection.cancel() }
        #expect(states.waitFor(.ready), "\(states.values)")
        #expect(states.values.prefix(2) == [.preparing, .ready])
        #expect(connection.host == name)
        #expect(connection.remoteAddress?.port == server.port)
        #expect(endpoint.resolutions.count == 1)
        #expect(connection.queue.sync { connection.serviceTarget } == "box.local", "TLS's default verify name, without the root dot")
        connection.send(bytes: [1, 2, 3])
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = try #require(server.accepted.values.first)
        #expect(receiveBlocking(peer, min: 3, max: 3)?.0 == Data([1, 2, 3]))
    }

    /// A failed resolution is an attempt failure: waiting with the error naming the service, a
    /// fresh resolution on every retry, failed once the attempts are used up.
    @Test func serviceThatDoesNotResolveWaitsThenFailsNamingTheService() throws {
        let error = WireError.serviceResolution(service: name, reason: "gone")
        let endpoint = ScriptedServiceEndpoint(name, answer: .failure(error))
        let (connection, states) = start(endpoint, retry: RetryPolicy(initialDelay: 0.02, maximumDelay: 0.05, maximumAttempts: 3))
        defer { connection.cancel() }
        #expect(states.waitForFailure() == error, "\(states.values)")
        #expect(states.values.contains(.waiting(error)))
        #expect(endpoint.resolutions.count == 3)
    }

    /// An answer that names a target but no address fails the attempt, saying which target.
    @Test func anAnswerWithoutAddressesFailsTheAttemptNamingItsTarget() {
        let endpoint = ScriptedServiceEndpoint(name, answer: .success(ResolvedServiceEndpoint(targetHost: "box.local.", addresses: [])))
        let (connection, states) = start(endpoint, retry: RetryPolicy(maximumAttempts: 1))
        defer { connection.cancel() }
        let failure = states.waitForFailure()
        #expect(failure == .serviceResolution(service: name, reason: "the answer (target box.local.) has no address"), "\(states.values)")
        #expect(connection.queue.sync { connection.serviceTarget } == nil, "no target is kept from an answer without addresses")
    }

    /// A resolution that never answers is bounded by the connect timeout, then cancelled.
    @Test func serviceThatNeverAnswersTimesOutNamingTheService() throws {
        let endpoint = ScriptedServiceEndpoint(name, answer: nil)
        let (connection, states) = start(endpoint, Parameters(tcp: TCPOptions(connectionTimeout: 0.2)),
                                         retry: RetryPolicy(maximumAttempts: 1))
        defer { connection.cancel() }
        let failure = states.waitForFailure()
        #expect(failure == .serviceResolution(service: name, reason: "no answer within 0.2 s"), "\(states.values)")
        #expect(Recorder<Int>.poll { endpoint.resolutions.map(\.cancelCount) == [1] }, "the teardown after the failure cancels it")
        endpoint.answerPending(.success(ResolvedServiceEndpoint(targetHost: "late.local.", addresses: [])))
        usleep(50_000)
        #expect(connection.currentState == failure.map { .failed($0) })
    }

    /// Cancel while resolving: cancelled last, the resolution cancelled, a late answer dropped,
    /// and nothing keeps the connection alive.
    @Test func cancelWhileResolvingEndsCancelledAndDropsALateAnswer() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let endpoint = ScriptedServiceEndpoint(name, answer: nil)
        let states = Recorder<ConnectionState>()
        weak var released: Connection?
        do {
            let (connection, recorded) = start(endpoint)
            released = connection
            #expect(recorded.waitFor(.preparing))
            #expect(Recorder<Int>.poll { endpoint.resolutions.count == 1 })
            connection.cancel()
            #expect(recorded.waitFor(.cancelled), "\(recorded.values)")
            recorded.values.forEach(states.append)
            // The cancel itself stops the resolution, not the connection's release later (the
            // state is reported a moment before the teardown on the connection's queue runs).
            withExtendedLifetime(connection) {
                #expect(Recorder<Int>.poll { endpoint.resolutions.map(\.cancelCount) == [1] }, "\(endpoint.resolutions.map(\.cancelCount))")
            }
        }
        endpoint.answerPending(.success(ResolvedServiceEndpoint(
            targetHost: "late.local.", addresses: [try SocketAddress(numericHost: "127.0.0.1", port: server.port)])))
        usleep(100_000)
        #expect(states.values == [.preparing, .cancelled])
        #expect(server.accepted.values.isEmpty, "a late answer must not connect")
        #expect(Recorder<Int>.poll { released == nil }, "the connection is released")
    }

    @Test func numericHostsOnlyMakeSocketAddresses() throws {
        #expect(try SocketAddress(numericHost: "10.213.0.1", port: 80).description == "10.213.0.1:80")
        #expect(try SocketAddress(numericHost: "::1", port: 443).description == "[::1]:443")
        #expect(throws: WireError.self) { try SocketAddress(numericHost: "localhost", port: 1) }
    }
}
