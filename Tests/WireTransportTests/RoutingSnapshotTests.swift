import CWireTransport
import Glibc
import Testing
@testable import WireTransport

/// The path a routing dump makes, on snapshots built here: which routes count as usable, which
/// interfaces are listed, and what status and reason come out with and without a remote.
@Suite struct RoutingSnapshotTests {
    static let upRunning = UInt32(IFF_UP | IFF_RUNNING)
    static let lo = LinkRecord(index: 1, name: "lo", hardwareType: UInt16(cwire_arphrd_loopback), flags: upRunning)
    static let eth = LinkRecord(index: 2, name: "eth0", hardwareType: UInt16(cwire_arphrd_ether), flags: upRunning)
    static let noCarrier = LinkRecord(index: 3, name: "eth1", hardwareType: UInt16(cwire_arphrd_ether), flags: UInt32(IFF_UP))
    static let down = LinkRecord(index: 4, name: "eth2", hardwareType: UInt16(cwire_arphrd_ether), flags: UInt32(IFF_RUNNING))

    static func route(_ family: Int32 = AF_INET, via oif: Int32?, type: Int32 = cwire_rtn_unicast, table: Int32 = cwire_rt_table_main,
                      destination: [UInt8]? = nil, length: UInt8 = 0) -> RouteRecord {
        RouteRecord(family: UInt8(family), destinationLength: length, table: UInt32(table), routeType: UInt8(type),
                    destination: destination, outputInterface: oif)
    }

    static func snapshot(_ routes: [RouteRecord]) -> RoutingSnapshot {
        var snapshot = RoutingSnapshot()
        for link in [lo, eth, noCarrier, down] { snapshot.links[link.index] = link }
        snapshot.routes = routes
        return snapshot
    }

    @Test func onlyMainTableUnicastRoutesThroughAnUpNonLoopbackInterfaceAreUsable() {
        let cases: [(String, RouteRecord, Bool)] = [
            ("default route through eth0", Self.route(via: 2), true),
            ("multipath: no single interface", Self.route(via: nil), true),
            ("through lo", Self.route(via: 1), false),
            ("through a link without carrier", Self.route(via: 3), false),
            ("through a link that is down", Self.route(via: 4), false),
            ("through a link the dump did not list", Self.route(via: 9), false),
            ("blackhole", Self.route(via: nil, type: cwire_rtn_blackhole), false),
            ("unreachable", Self.route(via: nil, type: cwire_rtn_unreachable), false),
            ("local table", Self.route(via: 2, table: cwire_rt_table_local), false),
        ]
        for (what, route, usable) in cases {
            let snapshot = Self.snapshot([route])
            #expect(snapshot.usable(family: AF_INET) == usable, "\(what)")
            #expect(!snapshot.usable(family: AF_INET6), "\(what): an IPv4 route says nothing about IPv6")
        }
    }

    @Test func ipv6LinkLocalRoutesDoNotCountButOtherIPv6RoutesDo() {
        let linkLocal = Self.route(AF_INET6, via: 2, destination: [0xFE, 0x80] + Array(repeating: 0, count: 14), length: 64)
        let global = Self.route(AF_INET6, via: 2, destination: [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 12), length: 64)
        let febf = Self.route(AF_INET6, via: 2, destination: [0xFE, 0xBF] + Array(repeating: 0, count: 14), length: 64)
        let fec0 = Self.route(AF_INET6, via: 2, destination: [0xFE, 0xC0] + Array(repeating: 0, count: 14), length: 10)
        let wholeBlock = Self.route(AF_INET6, via: 2, destination: [0xFE, 0x80] + Array(repeating: 0, count: 14), length: 10)
        #expect(RoutingSnapshot.isLinkLocal(linkLocal) && RoutingSnapshot.isLinkLocal(febf), "fe80::/10 holds fe80 to febf")
        #expect(RoutingSnapshot.isLinkLocal(wholeBlock), "the /10 itself")
        let secondByteAlike = Self.route(AF_INET6, via: 2, destination: [0x20, 0x80] + Array(repeating: 0, count: 14), length: 64)
        #expect(!RoutingSnapshot.isLinkLocal(global) && !RoutingSnapshot.isLinkLocal(fec0))
        #expect(!RoutingSnapshot.isLinkLocal(secondByteAlike), "2080::/64: the first byte must be fe too")
        #expect(!RoutingSnapshot.isLinkLocal(Self.route(AF_INET6, via: 2)), "the default route has no destination")
        #expect(!RoutingSnapshot.isLinkLocal(Self.route(AF_INET, via: 2, destination: [0xFE, 0x80, 0, 0], length: 16)), "IPv4 is never")
        #expect(!Self.snapshot([linkLocal]).usable(family: AF_INET6))
        #expect(Self.snapshot([linkLocal, global]).usable(family: AF_INET6))
    }

    @Test func thePathListsUpInterfacesByIndexAndTakesItsStatusFromTheRemoteWhenThereIsOne() {
        let usable = Self.snapshot([Self.route(via: 2)])
        let system = usable.path(remote: nil)
        #expect(system.status == .satisfied && system.unsatisfiedReason == nil)
        #expect(system.availableInterfaces.map(\.name) == ["lo", "eth0"], "up and running only, by index")
        #expect(system.supportsIPv4 && !system.supportsIPv6)

        let none = Self.snapshot([Self.route(via: 1)]).path(remote: nil)
        #expect(none.status == .unsatisfied && !none.supportsIPv4)
        #expect(none.unsatisfiedReason == "no usable route through an interface that is up (IPv6 link-local routes do not count)")

        // With a remote, its verdict decides, whatever the table holds.
        let reachable = Self.snapshot([]).path(remote: .reachable(interfaceIndex: 1))
        #expect(reachable.status == .satisfied && reachable.unsatisfiedReason == nil && !reachable.supportsIPv4)
        let unreachable = usable.path(remote: .unreachable("no route to 10.0.0.9: Network is unreachable"))
        #expect(unreachable.status == .unsatisfied && unreachable.supportsIPv4)
        #expect(unreachable.unsatisfiedReason == "no route to 10.0.0.9: Network is unreachable")
    }
}
