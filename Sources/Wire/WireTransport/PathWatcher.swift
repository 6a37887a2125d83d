import CWireTransport
import Dispatch
import Glibc

/// Watches the routing tables through the process's netlink subscription (`RouteChangeFeed`:
/// links, IPv4/IPv6 addresses and routes) and re-evaluates a path after each burst of changes:
/// the engine behind `PathMonitor` and a connection's own path.
///
/// Every change notification only triggers work; the path is always rebuilt from the kernel's
/// current answer (a dump, or a route lookup per remote), never patched from notifications. That
/// is what keeps it right where notifications are silent: IPv4 drops the routes of an interface
/// that goes down without an RTM_DELROUTE for each.
///
/// Confined to `queue` after `init` (the owner's serial queue). Ownership: the subscription to the
/// feed is the watcher's, ended by `cancel()` (the owner calls it on every path out).
final class PathWatcher: @unchecked Sendable {
    /// What the path is about.
    enum Scope {
        /// The whole system (a dump of links and routes); with a remote, its route decides the status.
        case system(remote: SocketAddress?)
        /// Only the routes to these addresses (a connection's): satisfied when any is reachable.
        case remotes([SocketAddress])
    }

    /// Notifications closer together than this are one burst: one evaluation, one callback.
    static let coalescingDelay = 0.05

    let queue: DispatchQueue
    var scope: Scope
    /// The last path evaluated; nil before `start()`.
    private(set) var path: NetworkPath?
    /// The interface the first reachable remote's route leaves by (`.remotes` scope), as of `path`.
    private(set) var routeInterfaceIndex: Int32?
    /// Evaluations run so far (the first included): one per burst of notifications, not one per
    /// notification.
    private(set) var evaluationCount = 0
    /// The feed's token while subscribed: from `init` to `cancel()`.
    private var subscription: UInt64?
    /// Between `start()` and `cancel()`: notifications lead to evaluations and `onChange`.
    private var active = false
    private var evaluation: DispatchWorkItem?
    private let onChange: (NetworkPath) -> Void

    /// Subscribes to the feed (which opens its socket, on the calling thread and so in its network
    /// namespace, when no other watcher has it open). Throws when netlink cannot be opened.
    init(scope: Scope, queue: DispatchQueue, onChange: @escaping (NetworkPath) -> Void) throws(WireError) {
        self.scope = scope
        self.queue = queue
        self.onChange = onChange
        subscription = try RouteChangeFeed.shared.subscribe { [weak self] in
            guard let self else { return }
            self.queue.async { self.notified() }
        }
    }

    deinit {
        if let subscription { RouteChangeFeed.shared.unsubscribe(subscription) }
    }

    /// On `queue`: starts reading notifications and evaluates the first path (returned; not
    /// passed to `onChange`).
    @discardableResult
    func start() -> NetworkPath {
        active = subscription != nil
        let first = evaluate()
        path = first
        return first
    }

    /// On `queue`: stops; no `onChange` after this. Idempotent.
    func cancel() {
        active = false
        evaluation?.cancel()
        evaluation = nil
        if let subscription { RouteChangeFeed.shared.unsubscribe(subscription) }
        subscription = nil
    }

    /// On `queue`: evaluates now into `path` without calling `onChange` (the owner changed the
    /// scope and reads the result itself); a pending evaluation is folded into this one.
    func refresh() {
        evaluation?.cancel()
        evaluation = nil
        path = evaluate()
    }

    /// The feed saw a change: evaluate once the burst is over.
    private func notified() {
        if active { scheduleEvaluation() }
    }

    private func scheduleEvaluation() {
        guard evaluation == nil else { return }
        let item = DispatchWorkItem { [weak self] in
            guard let self, self.evaluation != nil else { return }
            self.evaluation = nil
            self.publish(self.evaluate())
        }
        evaluation = item
        queue.asyncAfter(deadline: .now() + Self.coalescingDelay, execute: item)
    }

    private func publish(_ next: NetworkPath) {
        guard active, next != path else { return }
        path = next
        onChange(next)
    }

    /// The path as the kernel answers now.
    private func evaluate() -> NetworkPath {
        evaluationCount += 1
        switch scope {
        case .system(let remote):
            do {
                let (snapshot, _) = try RoutingSnapshot.dump()
                return snapshot.path(remote: remote.map { RouteLookup.route(to: $0) ?? .reachable(interfaceIndex: nil) })
            } catch {
                return NetworkPath(status: .unsatisfied, availableInterfaces: [], supportsIPv4: false, supportsIPv6: false,
                                   unsatisfiedReason: "the routing tables could not be read: \(error)")
            }
        case .remotes(let addresses):
            var interfaces: [NetworkInterface] = [], reasons: [String] = []
            var v4 = false, v6 = false
            routeInterfaceIndex = nil
            for address in addresses {
                // No verdict (netlink failed): unknown is not unreachable; let the connect decide.
                switch RouteLookup.route(to: address) ?? .reachable(interfaceIndex: nil) {
                case .reachable(let index):
                    if address.family == AF_INET { v4 = true } else { v6 = true }
                    if routeInterfaceIndex == nil { routeInterfaceIndex = index }
                    if let index, !interfaces.contains(where: { $0.index == Int(index) }), let interface = RouteLookup.interface(index: index) {
                        interfaces.append(interface)
                    }
                case .unreachable(let why): reasons.append(why)
                }
            }
            let satisfied = v4 || v6
            return NetworkPath(status: satisfied ? .satisfied : .unsatisfied, availableInterfaces: interfaces,
                               supportsIPv4: v4, supportsIPv6: v6, unsatisfiedReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "))
        }
    }
}
