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

/// A socket with its Dispatch read and write sources and (for TLS) its session: everything one
/// connect attempt or one accepted connection owns. Confined to `queue`.
///
/// Sources start inactive; `armRead`/`armWrite` resume or suspend them (they are level-triggered,
/// so an armed source with nothing to do would spin). `close()` cancels both and, once both cancel
/// handlers ran (so Dispatch no longer watches the descriptor), frees the TLS session and then
/// closes the descriptor: the descriptor is never closed while a source still refers to it.
final class IOChannel: @unchecked Sendable {
    let socket: SocketHandle
    var tls: TLSSession?
    private let readSource: DispatchSourceRead
    private let writeSource: DispatchSourceWrite
    private enum SourceState { case inactive, running, suspended }
    private var readState = SourceState.inactive
    private var writeState = SourceState.inactive
    private var closed = false
    /// Called on `queue` when the socket is readable / writable while armed.
    var onReadable: (() -> Void)?
    var onWritable: (() -> Void)?

    init(socket: SocketHandle, queue: DispatchQueue) {
        self.socket = socket
        // SAFETY: the descriptor stays open until both sources' cancel handlers ran (see close()).
        let fd = (try? socket.withDescriptor { $0 }) ?? -1
        readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        writeSource = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        readSource.setEventHandler { [weak self] in self?.onReadable?() }
        writeSource.setEventHandler { [weak self] in self?.onWritable?() }
    }

    func armRead(_ on: Bool) { readState = Self.arm(readSource, readState, on) }
    func armWrite(_ on: Bool) { writeState = Self.arm(writeSource, writeState, on) }

    private static func arm(_ source: DispatchSourceProtocol, _ state: SourceState, _ on: Bool) -> SourceState {
        switch (state, on) {
        case (.inactive, true): source.activate(); return .running
        case (.suspended, true): source.resume(); return .running
        case (.running, false): source.suspend(); return .suspended
        default: return state
        }
    }

    var isClosed: Bool { closed }

    /// Cancels both sources; the TLS session and the descriptor are released after both cancel
    /// handlers ran. Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        onReadable = nil
        onWritable = nil
        var remaining = 2
        let finish = { [socket] (channel: IOChannel) in
            remaining -= 1
            if remaining == 0 {
                channel.tls = nil
                socket.close()
            }
        }
        // The cancel handlers hold the channel until both ran (then Dispatch releases them).
        readSource.setCancelHandler { finish(self) }
        writeSource.setCancelHandler { finish(self) }
        for (source, state) in [(readSource as DispatchSourceProtocol, readState), (writeSource, writeState)] {
            // A source must be running to be cancelled and released.
            if state == .inactive { source.activate() } else if state == .suspended { source.resume() }
            source.cancel()
        }
        readState = .running
        writeState = .running
    }

    deinit {
        precondition(closed, "IOChannel released without close(): its descriptor would leak")
    }
}
