import CWireTransport
import Dispatch
import Glibc

/// Watches the routing tables through a netlink subscription (links, IPv4/IPv6 addresses and
/// routes) and re-evaluates a path after each burst of changes: the engine behind `PathMonitor`
/// and a connection's own path.
///
/// Every change notification only triggers work; the path is always rebuilt from the kernel's
/// current answer (a dump, or a route lookup per remote), never patched from notifications. That
/// is what keeps it right where notifications are silent: IPv4 drops the routes of an interface
/// that goes down without an RTM_DELROUTE for each.
///
/// Confined to `queue` after `init` (the owner's serial queue). Ownership: the subscription
/// socket belongs to `channel`, closed by `cancel()` (the owner calls it on every path out).
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
    /// Datagrams read per readable event before yielding the queue (the source fires again).
    static let datagramsPerWakeup = 64

    let queue: DispatchQueue
    var scope: Scope
    /// The last path evaluated; nil before `start()`.
    private(set) var path: NetworkPath?
    /// The interface the first reachable remote's route leaves by (`.remotes` scope), as of `path`.
    private(set) var routeInterfaceIndex: Int32?
    /// Evaluations run so far (the first included): one per burst of notifications, not one per
    /// notification.
    private(set) var evaluationCount = 0
    /// Malformed netlink messages skipped so far, and the last reason.
    private(set) var skippedMessages = 0
    private(set) var lastSkipReason: NetlinkParseError?
    private var channel: IOChannel?
    private var evaluation: DispatchWorkItem?
    private lazy var buffer = DatagramBuffer(count: 1, size: NetlinkSocket.receiveSize)
    private let onChange: (NetworkPath) -> Void

    /// Opens and subscribes the netlink socket on the calling thread, so in its network namespace.
    init(scope: Scope, queue: DispatchQueue, onChange: @escaping (NetworkPath) -> Void) throws(WireError) {
        let socket = try NetlinkSocket(groups: cwire_rtmgrp_watched)
        self.scope = scope
        self.queue = queue
        self.onChange = onChange
        self.channel = IOChannel(socket: socket.handle, queue: queue)
    }

    /// On `queue`: starts reading notifications and evaluates the first path (returned; not
    /// passed to `onChange`).
    @discardableResult
    func start() -> NetworkPath {
        channel?.onReadable = { [weak self] in self?.drain() }
        channel?.armRead(true)
        let first = evaluate()
        path = first
        return first
    }

    /// On `queue`: stops; no `onChange` after this. Idempotent.
    func cancel() {
        evaluation?.cancel()
        evaluation = nil
        channel?.close()
        channel = nil
    }

    /// On `queue`: evaluates now into `path` without calling `onChange` (the owner changed the
    /// scope and reads the result itself); a pending evaluation is folded into this one.
    func refresh() {
        evaluation?.cancel()
        evaluation = nil
        path = evaluate()
    }

    private func drain() {
        guard let channel else { return }
        let socket = NetlinkSocket(handle: channel.socket)
        var changed = false
        for _ in 0 ..< Self.datagramsPerWakeup {
            let received: (bytes: ArraySlice<UInt8>, tooLong: NetlinkParseError?)?
            do throws(SystemError) {
                received = try socket.receive(into: buffer)
            } catch {
                // ENOBUFS: the kernel dropped notifications for us; a fresh evaluation covers them.
                changed = true
                if error.errno == ENOBUFS { continue }
                break
            }
            guard let (bytes, tooLong) = received else { break }
            if let tooLong { note(tooLong); changed = true; continue }  // lost notifications: re-evaluate
            let decoded = NetlinkRecord.decodeAll(bytes)
            decoded.skipped.forEach(note)
            changed = changed || !decoded.records.isEmpty
        }
        if changed { scheduleEvaluation() }
    }

    private func note(_ reason: NetlinkParseError) {
        skippedMessages += 1
        lastSkipReason = reason
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
        guard channel != nil, next != path else { return }
        path = next
        onChange(next)
    }

    /// The path as the kernel answers now.
    private func evaluate() -> NetworkPath {
        evaluationCount += 1
        switch scope {
        case .system(let remote):
            do {
                let (snapshot, skipped) = try RoutingSnapshot.dump()
                skipped.forEach(note)
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
