import Glibc
import Testing
@testable import WireTransport

/// The requests a route or link lookup sends (their bytes, without a kernel), and the kernel's
/// answer for the loopback address, which every Linux machine routes the same way.
@Suite struct RouteLookupTests {
    static func address(_ literal: String) throws -> SocketAddress {
        try #require(SocketAddress.resolveNumeric(host: literal, port: 0, datagram: false).first)
    }

    /// An address of a family that is neither IPv4 nor IPv6 (a Unix socket's).
    static var unixAddress: SocketAddress {
        var storage = sockaddr_storage()
        storage.ss_family = sa_family_t(AF_UNIX)
        return SocketAddress(storage: storage, length: socklen_t(MemoryLayout<sa_family_t>.size))
    }

    @Test func anIPv4RouteRequestIsAZeroedRtmsgForThatOneAddressThenItsDestination() throws {
        let body = RouteLookup.routeRequestBody(to: try Self.address("127.0.0.1"))
        // rtmsg: family AF_INET, dst_len 32, then src_len, tos, table, protocol, scope, type, flags
        // all zero; RTA_DST: length 8, type 1, the address.
        #expect(body == [2, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + [8, 0, 1, 0, 127, 0, 0, 1])
    }

    @Test func anIPv6RouteRequestIsAZeroedRtmsgForThatOneAddressThenItsDestination() throws {
        let body = RouteLookup.routeRequestBody(to: try Self.address("::1"))
        let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
        #expect(body == [10, 128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + [20, 0, 1, 0] + loopback)
    }

    @Test func anAddressOfAnotherFamilyHasNoRouteRequestAndNoVerdict() {
        #expect(RouteLookup.routeRequestBody(to: Self.unixAddress) == nil)
        #expect(RouteLookup.route(to: Self.unixAddress) == nil)
    }

    @Test func aLinkRequestIsAZeroedIfinfomsgHoldingOnlyTheIndex() {
        // ifinfomsg: family, pad, type (2 bytes), index (4, host order), flags (4), change (4).
        #expect(RouteLookup.linkRequestBody(index: 0x0403_0201) == [0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func theLoopbackAddressIsReachableThroughTheLoopbackInterface() throws {
        let lo = Int32(if_nametoindex("lo"))
        try #require(lo > 0)
        #expect(RouteLookup.route(to: try Self.address("127.0.0.1")) == .reachable(interfaceIndex: lo))
        let interface = try #require(RouteLookup.interface(index: lo))
        #expect(interface.name == "lo" && interface.index == Int(lo) && interface.type == .loopback)
    }
}
