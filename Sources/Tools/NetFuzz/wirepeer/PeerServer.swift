import Dispatch
import Foundation
import Glibc
import FacadeProof
import NetFuzzProtocol
import WireTransport

/// Serves requests on accepted connections: every callback issues the next step, so each
/// connection has at most one request in flight and nothing outlives the connection.
struct PeerServer: Sendable {
    let messageType: FacadeMessageType

    /// The answer to one request: the facade's re-encoding, or its typed decode error.
    func answer(_ request: [UInt8], datagram: Bool) -> [UInt8] {
        do {
            let reencoded = try messageType.decodeReencode(request)
            if datagram && reencoded.count + 1 > PeerProtocol.maximumDatagram { return PeerProtocol.answer(.answerTooLarge, []) }
            return PeerProtocol.answer(.decoded, reencoded)
        } catch {
            return PeerProtocol.answer(.rejected, Array("\(error)".utf8))
        }
    }

    /// One stream connection: read a frame, answer it, repeat until the peer closes or breaks the
    /// protocol. Each completion issues the next step, so at most one request is in flight.
    func serveStream(_ connection: Connection) {
        connection.receive(minimumIncompleteLength: 4, maximumLength: 4) { header, _, error in
            guard error == nil, let header, let length = PeerProtocol.frameLength(header: header) else {
                return connection.cancel()  // end of stream, or the connection failed
            }
            guard length <= PeerProtocol.maximumFrame else {
                let reason = "frame of \(length) bytes exceeds \(PeerProtocol.maximumFrame)"
                connection.send(bytes: PeerProtocol.frame(PeerProtocol.answer(.refused, Array(reason.utf8)))) { _ in connection.cancel() }
                return
            }
            if length == 0 { return respond(connection, []) }
            connection.receive(minimumIncompleteLength: length, maximumLength: length) { body, _, error in
                guard error == nil, let body, body.count == length else { return connection.cancel() }
                respond(connection, [UInt8](body))
            }
        }
    }

    func respond(_ connection: Connection, _ request: [UInt8]) {
        connection.send(bytes: PeerProtocol.frame(answer(request, datagram: false))) { error in
            if error == nil { serveStream(connection) } else { connection.cancel() }
        }
    }

    /// One UDP peer: answer every datagram with one datagram.
    func serveDatagrams(_ connection: Connection) {
        connection.receive(minimumIncompleteLength: 1, maximumLength: 65_536) { datagram, _, error in
            if let error {
                if case .datagramTruncated = error { return serveDatagrams(connection) }
                return connection.cancel()
            }
            connection.send(bytes: answer([UInt8](datagram ?? Data()), datagram: true))
            serveDatagrams(connection)
        }
    }
}

/// The peer's listeners, released before exit: a live Swift object that is the target of a weak
/// reference keeps its side table behind a tagged pointer LeakSanitizer cannot follow, so anything
/// still alive at exit would be reported as a leak.
final class ListenerSet: @unchecked Sendable {
    private var listeners: [Listener]
    init(_ listeners: [Listener]) { self.listeners = listeners }

    /// Cancels every listener, waits (up to 5 s in all) until each is cancelled, and drops them.
    /// Called once.
    func stop() {
        for listener in listeners { listener.cancel() }
        var waitsLeft = 5000
        for listener in listeners {
            while listener.currentState != .cancelled && waitsLeft > 0 { usleep(1000); waitsLeft -= 1 }
        }
        listeners = []
    }
}

/// The signals that stop the peer, blocked in the calling thread and in every thread it starts
/// afterwards. Call before anything starts a thread (Dispatch starts its workers lazily), so the
/// kernel keeps a SIGTERM or SIGINT pending until `waitForStopSignal` takes it.
///
/// Why not a Dispatch signal source and `dispatchMain()`: on Linux that parks the main thread in
/// libdispatch's signal loop after `pthread_exit`, on stack memory whose ASan shadow still holds
/// redzones of the frames that exited; the loop's `sigfillset` then trips a false
/// stack-buffer-overflow on SIGTERM and the peer exits 1 instead of 0.
func blockStopSignals() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGINT)
    let status = pthread_sigmask(SIG_BLOCK, &set, nil)
    precondition(status == 0, "pthread_sigmask: \(status)")
    return set
}

/// Blocks until one of `signals` (blocked by `blockStopSignals`) arrives, then stops every
/// listener and exits 0, so the sanitizer's exit-time leak check runs.
func waitForStopSignal(_ signals: sigset_t, then listeners: ListenerSet) -> Never {
    var signals = signals
    var number: Int32 = 0
    while sigwait(&signals, &number) != 0 {}
    listeners.stop()
    // A listening socket is closed by Dispatch cancel handlers that run after `cancel`.
    usleep(200_000)
    exit(0)
}
