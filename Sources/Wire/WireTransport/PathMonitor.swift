import Dispatch

/// Watches the network (NWPathMonitor's shape): interfaces and routes appearing and going away,
/// reported as a `NetworkPath` through `pathUpdateHandler` on the queue passed to `start(queue:)`.
///
/// The monitor reads the network namespace of the thread that created it (its netlink socket is
/// opened in `init`). The first path is delivered after `start(queue:)`; later ones after each
/// burst of kernel notifications (bursts closer than `PathWatcher.coalescingDelay` are one
/// update), and only when the path differs from the last one delivered.
///
/// Threading: every mutable property is touched only on `queue`, the monitor's private serial
/// queue; the public accessors hop onto it and may be called from any thread. Ownership: the
/// netlink socket belongs to the watcher and is closed by `cancel()` or when the monitor is released.
public final class PathMonitor: @unchecked Sendable {
    private let queue = DispatchQueue(label: "wire.path-monitor")
    private let watcher: PathWatcher
    private var handler: (@Sendable (NetworkPath) -> Void)?
    private var userQueue: DispatchQueue?
    private var started = false
    private var cancelled = false

    /// A monitor of the whole system or, with `remoteHost` (a numeric IPv4 or IPv6 address), of
    /// the route to that host: its path is satisfied only while the kernel has a usable route to
    /// it. Throws `WireError.posix` naming the call when the netlink socket cannot be opened
    /// (no AF_NETLINK in this sandbox, a seccomp filter), `.resolution` for a remote that is not
    /// a numeric address.
    public init(remoteHost: String? = nil) throws(WireError) {
        let remote = try remoteHost.map { host throws(WireError) in
            guard let first = try SocketAddress.resolveNumeric(host: host, port: 0, datagram: false).first else {
                throw WireError.resolution(host: host, reason: "not a numeric address")
            }
            return first
        }
        var deliver: ((NetworkPath) -> Void)?
        watcher = try PathWatcher(scope: .system(remote: remote), queue: queue) { deliver?($0) }
        deliver = { [weak self] path in self?.deliver(path) }
    }

    deinit {
        let watcher = self.watcher
        queue.async { watcher.cancel() }
    }

    /// Called on the start queue with the first path, then with every change.
    public var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? {
        get { queue.sync { handler } }
        set { queue.sync { handler = cancelled ? nil : newValue } }
    }

    /// The last path evaluated (nil before `start(queue:)` has run).
    public var currentPath: NetworkPath? { queue.sync { watcher.path } }

    /// Malformed netlink messages skipped so far, with the last reason (nil if none).
    public var skippedMessages: (count: Int, lastReason: String?) {
        let skipped = RouteChangeFeed.shared.skippedMessages
        return (skipped.count, skipped.lastReason?.description)
    }

    /// How many times the path was evaluated (tests: bursts are coalesced).
    var evaluationCount: Int { queue.sync { watcher.evaluationCount } }

    /// Reads the first path and starts watching; a second call does nothing.
    public func start(queue userQueue: DispatchQueue) {
        queue.async {
            guard !self.started, !self.cancelled else { return }
            self.started = true
            self.userQueue = userQueue
            self.deliver(self.watcher.start())
        }
    }

    /// Stops watching and closes the socket; no handler call is queued after it. Idempotent.
    public func cancel() {
        queue.async {
            self.cancelled = true
            self.handler = nil
            self.watcher.cancel()
        }
    }

    private func deliver(_ path: NetworkPath) {
        guard let handler, let userQueue else { return }
        userQueue.async { handler(path) }
    }
}
