import Dispatch
import Foundation

/// async/await over the completion-handler API: the same state machine and queues, each call a
/// thin bridge onto its completion counterpart. Cancelling the awaiting task cancels the
/// connection (a half-finished send or receive leaves the stream in no defined place).
extension Connection {
    /// Every state from the current one on, ending after a terminal one (`failed`, `cancelled`).
    /// Takes the connection's `stateUpdateHandler` over (one consumer); ending the iteration early
    /// removes it. Start the connection with `start(queue:)` as usual.
    public func states() -> AsyncStream<ConnectionState> {
        AsyncStream { continuation in
            let deliver: @Sendable (ConnectionState) -> Void = { state in
                continuation.yield(state)
                if state.isTerminal { continuation.finish() }
            }
            // Installed, and the current state yielded, in one step on the connection's queue:
            // later states reach the handler only after it, so none is missed, repeated or reordered.
            queue.sync {
                stateHandler = state == .cancelled ? nil : deliver
                deliver(state)
            }
            continuation.onTermination = { [weak self] _ in self?.stateUpdateHandler = nil }
        }
    }

    /// Returns once the connection is `ready`; throws its failure (`failed`), or `cancelled`.
    /// `waiting` is waited through: the retry policy decides how long.
    public func ready() async throws(WireError) {
        for await state in states() {
            switch state {
            case .ready: return
            case .failed(let error): throw error
            case .cancelled: throw .cancelled
            case .setup, .preparing, .waiting: continue
            }
        }
        throw .cancelled
    }

    /// Sends `bytes` (`send(bytes:completion:)`); returns once the kernel (or OpenSSL) took them.
    /// `isFinal`: the last bytes this side sends (`ContentContext.finalMessage`).
    public func send(_ bytes: [UInt8], isFinal: Bool = false) async throws(WireError) {
        let error: WireError? = await bridge { done in
            if isFinal {
                self.send(content: Data(bytes), contentContext: .finalMessage) { done($0) }
            } else {
                self.send(bytes: bytes) { done($0) }
            }
        }
        if let error { throw error }
    }

    /// Receives between `minimum` and `maximum` bytes (`receive(minimumIncompleteLength:…)`).
    /// `data` is nil only at the end of the stream, when `isComplete` is true.
    public func receive(minimum: Int, maximum: Int) async throws(WireError) -> (data: Data?, isComplete: Bool) {
        let outcome: Result<(Data?, Bool), WireError> = await bridge { done in
            self.receive(minimumIncompleteLength: minimum, maximumLength: maximum) { data, complete, error in
                done(error.map { .failure($0) } ?? .success((data, complete)))
            }
        }
        let (data, complete) = try outcome.get()
        return (data, complete)
    }

    /// What the peer sends, one chunk of at most `maximumLength` bytes per element (one datagram
    /// per element on UDP), until the peer closes its side; a failure ends the sequence with it.
    public func messages(maximumLength: Int = 65_536) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            @Sendable func next() {
                receive(minimumIncompleteLength: 1, maximumLength: maximumLength) { data, complete, error in
                    if let error { return continuation.finish(throwing: error) }
                    if let data, !data.isEmpty { continuation.yield(data) }
                    if complete && !self.parameters.isDatagram { return continuation.finish() }
                    next()
                }
            }
            next()
        }
    }

    /// Runs `start` with a completion, awaits it; cancelling the task cancels the connection.
    private func bridge<T: Sendable>(_ start: @escaping @Sendable (_ done: @escaping @Sendable (T) -> Void) -> Void) async -> T {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in start { continuation.resume(returning: $0) } }
        } onCancel: {
            self.cancel()
        }
    }
}
