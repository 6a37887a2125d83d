import Dispatch
import Glibc

/// The one owner of a socket descriptor. The descriptor is reachable only through
/// `withDescriptor`, is closed exactly once by `close()`, and `deinit` closes a descriptor its
/// owner forgot (counting it in `leakedCloses`, which tests expect to stay 0).
///
/// Thread-safety: a handle is confined to the serial queue of the object that owns it (a
/// connection's or listener's internal queue); it has no lock of its own.
final class SocketHandle: @unchecked Sendable {
    private var fd: Int32

    /// How many handles were closed by `deinit` rather than by their owner (a bug if not 0).
    nonisolated(unsafe) static var leakedCloses = 0

    init(taking fd: Int32) { self.fd = fd }

    var isOpen: Bool { fd >= 0 }

    /// Runs `body` with the descriptor; throws EBADF (as a `SystemError`) once closed.
    func withDescriptor<R>(_ body: (Int32) throws(SystemError) -> R) throws(SystemError) -> R {
        guard fd >= 0 else { throw SystemError(call: "use after close", errno: EBADF) }
        return try body(fd)
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        guard fd >= 0 else { return }
        Sys.close(fd)
        fd = -1
    }

    deinit {
        if fd >= 0 {
            Self.leakedCloses += 1
            Sys.close(fd)
        }
    }
}

/// A socket with Dispatch sources for readiness, confined to one serial queue.
///
/// The read source lives as long as the channel (suspended while no read is wanted). The write
/// source exists only while a write (or a connect) waits for writability: it is created when armed
/// and cancelled when disarmed. A suspended write source left on the descriptor was seen to swallow
/// the hang-up of a peer's reset, so that the read source never fired and a pending receive
/// waited forever (1-3 of 400 clients reset by a listener at its connection limit; scripts/load-test.sh).
///
/// A read arm requested while a write source is still being cancelled is applied only after that
/// source's cancel handler ran (see `writeSourceCancelled()`).
///
/// The descriptor is closed only after every source created on it has run its cancel handler
/// (Dispatch's rule for sources on a descriptor).
final class IOChannel: @unchecked Sendable {
    let socket: SocketHandle
    var tls: TLSSession?
    private let queue: DispatchQueue
    private let fd: Int32
    private let readSource: DispatchSourceRead
    private var writeSource: DispatchSourceWrite?
    private enum SourceState { case inactive, running, suspended }
    private var readState = SourceState.inactive
    /// Write sources cancelled whose cancel handler has not run yet.
    private var writeSourcesClosing = 0
    /// A read arm requested while a write source was closing, applied once it has closed.
    private var deferredRead: Bool?
    /// Sources created and not yet through their cancel handler.
    private var liveSources = 1
    private var closed = false
    /// Called on `queue` when the socket is readable / writable while armed.
    var onReadable: (() -> Void)?
    var onWritable: (() -> Void)?

    init(socket: SocketHandle, queue: DispatchQueue) {
        self.socket = socket
        self.queue = queue
        // SAFETY: the descriptor stays open until every source's cancel handler ran (see close()).
        fd = (try? socket.withDescriptor { $0 }) ?? -1
        readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        readSource.setEventHandler { [weak self] in self?.onReadable?() }
    }

    /// Does nothing once closed: close() left the read source running so its cancel handler can
    /// run; suspending it again would hold the handler, and the descriptor, forever.
    func armRead(_ on: Bool) {
        guard !closed else { return }
        if writeSourcesClosing > 0 {
            deferredRead = on
            return
        }
        switch (readState, on) {
        case (.inactive, true): readSource.activate(); readState = .running
        case (.suspended, true): readSource.resume(); readState = .running
        case (.running, false): readSource.suspend(); readState = .suspended
        default: break
        }
    }

    func armWrite(_ on: Bool) {
        guard !closed else { return }
        if on, writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [weak self] in self?.onWritable?() }
            source.setCancelHandler { self.writeSourceCancelled() }  // holds the channel until it ran
            liveSources += 1
            writeSource = source
            source.activate()
        } else if !on, let source = writeSource {
            writeSource = nil
            writeSourcesClosing += 1
            source.cancel()
        }
    }

    /// On `queue`: a write source is gone. Activating or resuming the read source while the same
    /// descriptor's write source was still being cancelled lost the hang-up of a reset that had
    /// already arrived (1-4 of 390 reset clients in a storm, every run, once the read was armed
    /// right after connect); so a read arm waits for this.
    private func writeSourceCancelled() {
        writeSourcesClosing -= 1
        if writeSourcesClosing == 0, let on = deferredRead {
            deferredRead = nil
            armRead(on)
        }
        sourceCancelled()
    }

    var isClosed: Bool { closed }

    /// On `queue`: a source finished; the last one out (after close) releases TLS and the socket.
    private func sourceCancelled() {
        liveSources -= 1
        if closed && liveSources == 0 {
            tls = nil
            socket.close()
        }
    }

    /// Cancels the sources; the TLS session and the descriptor are released after every cancel
    /// handler ran. Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        onReadable = nil
        onWritable = nil
        // The cancel handler holds the channel until it ran (then Dispatch releases it).
        readSource.setCancelHandler { self.sourceCancelled() }
        // A source must be running to be cancelled and released.
        if readState == .inactive { readSource.activate() } else if readState == .suspended { readSource.resume() }
        readState = .running
        readSource.cancel()
        if let source = writeSource {
            writeSourcesClosing += 1
            source.cancel()
        }
        writeSource = nil
    }

    deinit {
        precondition(closed, "IOChannel released without close(): its descriptor would leak")
    }
}
