import Dispatch
import Foundation
import NetFuzzProtocol
import WireTransport

/// The transports the driver fuzzes the peer over.
enum Transport: String, CaseIterable {
    case tcp, tls, udp
}

/// What one request got back.
enum Outcome: CustomStringConvertible {
    case answered(PeerProtocol.Status, [UInt8])
    /// The connection ended or failed before an answer (the error's text).
    case closed(String)
    /// No answer within the deadline.
    case timedOut

    var description: String {
        switch self {
        case let .answered(status, body):
            return status == .decoded ? "decoded (\(body.count)-byte re-encoding)" : "\(status): \(String(decoding: body.prefix(200), as: UTF8.self))"
        case let .closed(why): return "connection closed (\(why))"
        case .timedOut: return "no answer within the deadline"
        }
    }
}

/// A value filled in once from a callback and waited for with a deadline (later fills are ignored).
final class Mailbox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let signal = DispatchSemaphore(value: 0)
    private var value: Value?

    func fill(_ newValue: Value) {
        lock.lock()
        let first = value == nil
        if first { value = newValue }
        lock.unlock()
        if first { signal.signal() }
    }

    func wait(seconds: Double) -> Value? {
        guard signal.wait(timeout: .now() + seconds) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// One client connection to the peer, used one request at a time from the driver's thread.
final class Session {
    let transport: Transport
    private let connection: Connection
    private let queue = DispatchQueue(label: "netfuzz.session")

    /// Connects and waits for ready (at most `deadline` seconds); one attempt, no retries, since a
    /// refused connect is exactly what a dead peer looks like.
    init(_ transport: Transport, port: UInt16, tls: TLSOptions, deadline: Double) throws(NetFuzzError) {
        self.transport = transport
        let parameters: Parameters
        switch transport {
        case .tcp: parameters = .tcp
        case .tls: parameters = .tls(tls)
        case .udp: parameters = .udp
        }
        connection = Connection(host: "127.0.0.1", port: port, using: parameters)
        connection.retryPolicy = RetryPolicy(initialDelay: 0.05, maximumDelay: 0.05, maximumAttempts: 1)
        let ready = Mailbox<ConnectionState>()
        connection.stateUpdateHandler = { state in
            switch state {
            case .ready, .failed, .waiting, .cancelled: ready.fill(state)
            default: break
            }
        }
        connection.start(queue: queue)
        let state = ready.wait(seconds: deadline)
        guard state == .ready else {
            connection.cancel()
            throw NetFuzzError.setup("\(transport) connect to port \(port): \(state.map { "\($0)" } ?? "no answer within \(deadline) s")")
        }
    }

    deinit { connection.cancel() }

    func close() { connection.cancel() }

    /// Sends one request and waits for its answer.
    func exchange(_ message: [UInt8], deadline: Double) -> Outcome {
        let mailbox = Mailbox<Outcome>()
        let connection = self.connection
        if transport == .udp {
            connection.receive(minimumIncompleteLength: 1, maximumLength: 65_536) { data, _, error in
                mailbox.fill(Self.outcome(data, error))
            }
            connection.send(bytes: message) { error in if let error { mailbox.fill(.closed("send: \(error)")) } }
        } else {
            connection.receive(minimumIncompleteLength: 4, maximumLength: 4) { header, _, error in
                guard error == nil, let header, let length = PeerProtocol.frameLength(header: header) else {
                    return mailbox.fill(.closed(error.map { "\($0)" } ?? "end of stream"))
                }
                guard length > 0, length <= PeerProtocol.maximumFrame + 1 else {
                    return mailbox.fill(.closed("answer frame of \(length) bytes"))
                }
                connection.receive(minimumIncompleteLength: length, maximumLength: length) { body, _, error in
                    mailbox.fill(Self.outcome(body, error))
                }
            }
            connection.send(bytes: PeerProtocol.frame(message)) { error in if let error { mailbox.fill(.closed("send: \(error)")) } }
        }
        return mailbox.wait(seconds: deadline) ?? .timedOut
    }

    private static func outcome(_ data: Data?, _ error: WireError?) -> Outcome {
        if let error { return .closed("\(error)") }
        guard let data, let (status, body) = PeerProtocol.parseAnswer(data) else {
            return .closed(data == nil ? "end of stream" : "malformed answer")
        }
        return .answered(status, body)
    }
}
