import CWireTransport
import Glibc

/// A network interface as a path reports it (NWInterface's shape).
public struct NetworkInterface: Sendable, Hashable, CustomStringConvertible {
    /// From the interface's hardware type: every Ethernet-framed interface (veth, dummy, bridge,
    /// a real NIC) is `wiredEthernet`; Linux does not tell Wi-Fi apart through this type unless
    /// the driver exposes 802.11 framing.
    public enum InterfaceType: Sendable, Hashable { case wiredEthernet, wifi, loopback, other }
    public let name: String
    public let index: Int
    public let type: InterfaceType

    public var description: String { "\(name)#\(index)" }

    init(_ link: LinkRecord) {
        name = link.name
        index = Int(link.index)
        switch Int32(link.hardwareType) {
        case cwire_arphrd_ether: type = .wiredEthernet
        case cwire_arphrd_loopback: type = .loopback
        case cwire_arphrd_ieee80211, cwire_arphrd_ieee80211_radiotap: type = .wifi
        default: type = .other
        }
    }
}

/// Whether traffic can leave, and through what (NWPath's shape), as a `PathMonitor` or a
/// connection last evaluated it from the kernel's routing tables.
public struct NetworkPath: Sendable, Equatable, CustomStringConvertible {
    public enum Status: Sendable, Equatable { case satisfied, unsatisfied }
    /// Without a remote: satisfied when some route of the main table (other than a blackhole,
    /// unreachable or prohibit route) leaves through an interface that is up and not loopback.
    /// With a remote: satisfied when the kernel's own route lookup for it answers a usable route.
    public let status: Status
    /// Interfaces that are up (IFF_UP and IFF_RUNNING), by index. For a connection's path: the
    /// interface its route leaves by.
    public let availableInterfaces: [NetworkInterface]
    /// A usable IPv4 / IPv6 route exists (for a connection's path: to one of its addresses).
    public let supportsIPv4: Bool
    public let supportsIPv6: Bool
    /// Why the path is unsatisfied ("no route to 10.0.0.2: Network is unreachable"); nil when satisfied.
    public let unsatisfiedReason: String?

    public var description: String {
        let interfaces = availableInterfaces.map(\.description).joined(separator: ",")
        switch status {
        case .satisfied: return "satisfied[\(interfaces)]"
        case .unsatisfied: return "unsatisfied(\(unsatisfiedReason ?? "?"))[\(interfaces)]"
        }
    }

    init(status: Status, availableInterfaces: [NetworkInterface], supportsIPv4: Bool, supportsIPv6: Bool, unsatisfiedReason: String?) {
        self.status = status
        self.availableInterfaces = availableInterfaces
        self.supportsIPv4 = supportsIPv4
        self.supportsIPv6 = supportsIPv6
        self.unsatisfiedReason = status == .satisfied ? nil : (unsatisfiedReason ?? "no usable route")
    }
}

/// The links and routes of one dump, and the path they make.
struct RoutingSnapshot {
    var links: [Int32: LinkRecord] = [:]
    var routes: [RouteRecord] = []

    static func isUp(_ link: LinkRecord) -> Bool {
        link.flags & UInt32(IFF_UP) != 0 && link.flags & UInt32(IFF_RUNNING) != 0
    }

    /// Routes that can carry traffic: unicast, main table, through an up interface that is not
    /// loopback (or through no single interface: multipath), and not IPv6's link-local fe80::/64,
    /// which the kernel adds to every interface that is up, address or not.
    func usable(family: Int32) -> Bool {
        routes.contains { route in
            guard Int32(route.family) == family, route.table == UInt32(cwire_rt_table_main),
                  Int32(route.routeType) == cwire_rtn_unicast, !Self.isLinkLocal(route) else { return false }
            guard let oif = route.outputInterface else { return true }
            guard let link = links[oif] else { return false }
            return Self.isUp(link) && Int32(link.hardwareType) != cwire_arphrd_loopback
        }
    }

    static func isLinkLocal(_ route: RouteRecord) -> Bool {
        guard Int32(route.family) == AF_INET6, route.destinationLength >= 10, let d = route.destination, d.count == 16 else { return false }
        return d[0] == 0xFE && d[1] & 0xC0 == 0x80
    }

    /// The path: with `remote`, its status is the remote's route verdict.
    func path(remote: RouteVerdict?) -> NetworkPath {
        let up = links.values.filter(Self.isUp).sorted { $0.index < $1.index }.map(NetworkInterface.init)
        let v4 = usable(family: AF_INET), v6 = usable(family: AF_INET6)
        let status: NetworkPath.Status, reason: String?
        switch remote {
        case nil:
            status = v4 || v6 ? .satisfied : .unsatisfied
            reason = "no usable route through an interface that is up (IPv6 link-local routes do not count)"
        case .reachable?: status = .satisfied; reason = nil
        case .unreachable(let why)?: status = .unsatisfied; reason = why
        }
        return NetworkPath(status: status, availableInterfaces: up, supportsIPv4: v4, supportsIPv6: v6, unsatisfiedReason: reason)
    }

    /// Dumps links and routes (addresses are not needed: a route needs its interface's address).
    static func dump() throws(WireError) -> (RoutingSnapshot, [NetlinkParseError]) {
        var snapshot = RoutingSnapshot()
        var skipped: [NetlinkParseError] = []
        // struct ifinfomsg / rtmsg, all zero: every family, every interface, every table.
        for (type, size) in [(cwire_rtm_getlink, cwire_sizeof_ifinfomsg), (cwire_rtm_getroute, cwire_sizeof_rtmsg)] {
            let sequence = NetlinkSocket.nextSequence()
            let request = NetlinkMessage.request(type: Int32(type), flags: cwire_nlm_f_request | cwire_nlm_f_dump,
                                                 sequence: sequence, body: [UInt8](repeating: 0, count: Int(size)))
            let answer = try NetlinkSocket.query(request, sequence: sequence, dump: true)
            skipped += answer.skipped
            for record in answer.records {
                switch record {
                case .link(let link, removed: false): snapshot.links[link.index] = link
                case .route(let route, removed: false) where route.table == UInt32(cwire_rt_table_main): snapshot.routes.append(route)
                case .error(let e) where e != 0: throw .posix(call: "netlink dump", errno: e)
                default: break
                }
            }
        }
        return (snapshot, skipped)
    }
}
