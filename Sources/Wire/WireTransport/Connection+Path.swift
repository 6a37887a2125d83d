import Dispatch
import Glibc

/// A connection's view of its path: the watcher of the routes to its peer, the three handlers,
/// and what was last reported through them. Touched only on the connection's queue.
struct ConnectionPathState {
    /// Watches the routes to the resolved addresses, then (once ready) to the peer's address.
    /// nil before the first connect, after teardown, and when netlink cannot be opened.
    var watcher: PathWatcher?
    /// netlink could not be opened: the connection runs without a path (as before paths existed).
    var unavailable = false
    /// The watcher's last path, kept when the watcher stops (teardown).
    var lastPath: NetworkPath?
    var pathHandler: (@Sendable (NetworkPath) -> Void)?
    var viabilityHandler: (@Sendable (Bool) -> Void)?
    var betterPathHandler: (@Sendable (Bool) -> Void)?
    /// Reported viability: true from ready until the route to the peer goes away.
    var isViable = true
    /// The interface the route to the peer left by when the connection became ready.
    var readyInterfaceIndex: Int32?
    /// Reported: the route to the peer now leaves by another interface than at ready.
    var betterPathAvailable = false
}

/// Paths (NWConnection's pathUpdateHandler, viabilityUpdateHandler, betterPathUpdateHandler): an
/// outbound connection watches the kernel's routes to its peer from its first connect on.
///
/// - Preparing, or waiting on a back-off timer, with no usable route: the attempt is abandoned
///   (not counted against `RetryPolicy.maximumAttempts`) and the connection moves to
///   `waiting(.pathUnsatisfied(…))`; it retries as soon as a path update finds a route, not on a timer.
/// - Ready: the state stays `ready` (the socket may survive a short outage); the viability
///   handler gets `false` when the route goes away and `true` when it is back. The better-path
///   handler gets `true` while the route leaves by another interface than the one at ready.
/// Accepted connections and a listener's UDP peers do not watch paths.
extension Connection {
    /// Called on the start queue with the connection's path after each evaluation that changed it.
    public var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? {
        get { queue.sync { paths.pathHandler } }
        set { queue.sync { paths.pathHandler = state == .cancelled ? nil : newValue } }
    }

    /// Called on the start queue when a ready connection loses (false) or regains (true) its route.
    public var viabilityUpdateHandler: (@Sendable (Bool) -> Void)? {
        get { queue.sync { paths.viabilityHandler } }
        set { queue.sync { paths.viabilityHandler = state == .cancelled ? nil : newValue } }
    }

    /// Called on the start queue when a route through another interface than the connection's
    /// appears (true) or goes (false).
    public var betterPathUpdateHandler: (@Sendable (Bool) -> Void)? {
        get { queue.sync { paths.betterPathHandler } }
        set { queue.sync { paths.betterPathHandler = state == .cancelled ? nil : newValue } }
    }

    /// The path last evaluated for this connection, kept once it ended (nil before its first
    /// connect, or without netlink).
    public var currentPath: NetworkPath? { queue.sync { paths.watcher?.path ?? paths.lastPath } }

    /// Whether a ready connection still has a route to its peer (true before ready).
    public var isViable: Bool { queue.sync { paths.isViable } }

    // MARK: internal, on `queue`

    /// Before a connect to `addresses`: (re)evaluates their path. False when it is unsatisfied:
    /// the connection has then moved to waiting and the attempt must not go on.
    func pathAllowsConnect(to addresses: [SocketAddress]) -> Bool {
        let previous = paths.watcher?.path
        if let watcher = paths.watcher {
            watcher.scope = .remotes(addresses)
            watcher.refresh()
        } else if !paths.unavailable {
            do {
                let watcher = try PathWatcher(scope: .remotes(addresses), queue: queue) { [weak self] in self?.pathChanged($0) }
                paths.watcher = watcher
                watcher.start()
            } catch {
                paths.unavailable = true
            }
        }
        guard let path = paths.watcher?.path else { return true }
        if path != previous { reportPath(path) }
        guard path.status == .unsatisfied else { return true }
        attempts -= 1  // no connect was made
        apply(.pathUnsatisfied(.pathUnsatisfied(reason: path.unsatisfiedReason ?? "no usable route")))
        return false
    }

    /// Once ready: watch only the peer's address and remember the interface its route uses.
    func pathEstablished() {
        guard let watcher = paths.watcher, let peer = peerAddress else { return }
        let previous = watcher.path
        watcher.scope = .remotes([peer])
        watcher.refresh()
        paths.readyInterfaceIndex = watcher.routeInterfaceIndex
        paths.isViable = watcher.path?.status != .unsatisfied  // the route may have gone since the connect
        paths.betterPathAvailable = false
        if let path = watcher.path, path != previous { reportPath(path) }
    }

    /// From teardown: no path work after a terminal state.
    func stopWatchingPath(dropHandlers: Bool) {
        if let path = paths.watcher?.path { paths.lastPath = path }
        paths.watcher?.cancel()
        paths.watcher = nil
        if dropHandlers {
            paths.pathHandler = nil
            paths.viabilityHandler = nil
            paths.betterPathHandler = nil
        }
    }

    /// The watcher saw the path change.
    func pathChanged(_ path: NetworkPath) {
        reportPath(path)
        let satisfied = path.status == .satisfied
        let error = WireError.pathUnsatisfied(reason: path.unsatisfiedReason ?? "no usable route")
        switch stage {
        case .preparing where !satisfied:
            disarmDeadline()
            race?.cancel()
            race = nil
            channel?.close()
            channel = nil
            attempts -= 1  // abandoned for the path, not failed
            apply(.pathUnsatisfied(error))
        case .waiting:
            retryTimer?.cancel()
            retryTimer = nil
            if satisfied {
                apply(.pathSatisfied)
                beginAttempt()
            } else {
                apply(.pathUnsatisfied(error))
            }
        case .ready:
            if satisfied != paths.isViable {
                paths.isViable = satisfied
                report(paths.viabilityHandler, satisfied)
            }
            let better = Self.isBetterPath(satisfied: satisfied, routeInterface: paths.watcher?.routeInterfaceIndex,
                                           readyInterface: paths.readyInterfaceIndex)
            if better != paths.betterPathAvailable {
                paths.betterPathAvailable = better
                report(paths.betterPathHandler, better)
            }
        default:
            break
        }
    }

    /// The better-path verdict: the route is usable and leaves by a known interface other than
    /// the known one it left by at ready. An index netlink did not give (nil) is never better.
    static func isBetterPath(satisfied: Bool, routeInterface now: Int32?, readyInterface: Int32?) -> Bool {
        satisfied && now != nil && readyInterface != nil && now != readyInterface
    }

    private func reportPath(_ path: NetworkPath) {
        if let handler = paths.pathHandler, let userQueue { userQueue.async { handler(path) } }
    }

    private func report(_ handler: (@Sendable (Bool) -> Void)?, _ value: Bool) {
        if let handler, let userQueue { userQueue.async { handler(value) } }
    }
}
