import Testing
@testable import WireTransport

/// `states()` and the state handler it installs: removed when the consumer stops iterating, never
/// installed on a connection already cancelled. No socket is opened: the connections stay in
/// `setup` or are cancelled before they start.
@Suite struct StateSequenceTests {
    /// The first state the sequence yields; the iterator is gone when this returns.
    static func firstState(of states: AsyncStream<ConnectionState>) async -> ConnectionState? {
        for await state in states { return state }
        return nil
    }

    @Test func droppingTheSequenceAfterItsFirstStateRemovesTheStateHandler() async throws {
        try await withTaskExecutorPreference(PrivateQueueExecutor()) {
            let client = Connection(host: "127.0.0.1", port: 9, using: .tcp)
            var states: AsyncStream<ConnectionState>? = client.states()
            #expect(client.stateUpdateHandler != nil, "the sequence takes the handler over")
            let first = await Self.firstState(of: try #require(states))
            #expect(first == .setup)
            states = nil
            #expect(states == nil && client.stateUpdateHandler == nil, "nobody iterates any more")
            client.cancel()
        }
    }

    @Test func theStatesOfACancelledConnectionAreCancelledAloneAndInstallNoHandler() async {
        await withTaskExecutorPreference(PrivateQueueExecutor()) {
            let client = Connection(host: "127.0.0.1", port: 9, using: .tcp)
            client.cancel()
            #expect(client.currentState == .cancelled)
            let states = client.states()
            #expect(client.stateUpdateHandler == nil, "a cancelled connection never calls a handler again")
            var seen: [ConnectionState] = []
            for await state in states { seen.append(state) }
            #expect(seen == [.cancelled])
        }
    }
}
