import CWireTransport
import Glibc

/// The kernel's answer to "how would a packet to this address leave?".
enum RouteVerdict: Equatable {
    /// A unicast or local route; the interface it leaves by, when it names one.
    case reachable(interfaceIndex: Int32?)
    /// No route, or a blackhole / unreachable / prohibit route: why, in words.
    case unreachable(String)
}

/// Route lookups through RTM_GETROUTE with RTA_DST (what `ip route get` asks): the kernel runs its
/// own lookup (policy rules, tables, blackholes), so nothing here second-guesses it.
enum RouteLookup {
    /// The verdict for `address`; nil when netlink itself failed (no verdict, not "unreachable").
    static func route(to address: SocketAddress) -> RouteVerdict? {
        guard let body = routeRequestBody(to: address) else { return nil }
        let sequence = NetlinkSocket.nextSequence()
        let request = NetlinkMessage.request(type: Int32(cwire_rtm_getroute), flags: cwire_nlm_f_request, sequence: sequence, body: body)
        guard let answer = try? NetlinkSocket.query(request, sequence: sequence, dump: false), let first = answer.records.first else {
            return nil
        }
        switch first {
        case .route(let route, _):
            switch Int32(route.routeType) {
            case cwire_rtn_unicast, cwire_rtn_local: return .reachable(interfaceIndex: route.outputInterface)
            case cwire_rtn_blackhole: return .unreachable("the route to \(address.host) is a blackhole")
            case cwire_rtn_unreachable: return .unreachable("the route to \(address.host) is an unreachable route")
            case cwire_rtn_prohibit: return .unreachable("the route to \(address.host) is a prohibit route")
            default: return .unreachable("the route to \(address.host) has type \(route.routeType)")
            }
        case .error(let e) where e != 0:
            // The kernel answers a lookup that ends on a blackhole, unreachable or prohibit route
            // with the errno a local sender would get, not with the route.
            switch e {
            case EINVAL: return .unreachable("the route to \(address.host) is a blackhole (the kernel answers EINVAL)")
            case EHOSTUNREACH: return .unreachable("the route to \(address.host) is an unreachable route (EHOSTUNREACH)")
            case EACCES: return .unreachable("the route to \(address.host) is a prohibit route (EACCES)")
            default: return .unreachable("no route to \(address.host): \(String(cString: strerror(e)))")
            }
        default:
            return nil
        }
    }

    /// The interface with `index` (RTM_GETLINK for that one index), nil if it is gone.
    static func interface(index: Int32) -> NetworkInterface? {
        let sequence = NetlinkSocket.nextSequence()
        let request = NetlinkMessage.request(type: Int32(cwire_rtm_getlink), flags: cwire_nlm_f_request, sequence: sequence,
                                             body: linkRequestBody(index: index))
        guard let answer = try? NetlinkSocket.query(request, sequence: sequence, dump: false),
              case .link(let link, _)? = answer.records.first else { return nil }
        return NetworkInterface(link)
    }

    /// RTM_GETROUTE's body for `address`: a struct rtmsg, then RTA_DST. Nil for a family other
    /// than IPv4 and IPv6. (A function of its own so its bytes can be checked without a kernel.)
    static func routeRequestBody(to address: SocketAddress) -> [UInt8]? {
        guard let destination = address.addressBytes else { return nil }
        // struct rtmsg: family, dst_len (a full-length prefix: this one address), then zeros.
        var body = [UInt8](repeating: 0, count: Int(cwire_sizeof_rtmsg))
        body[0] = UInt8(truncatingIfNeeded: address.family)
        body[1] = UInt8(destination.count * 8)
        return body + NetlinkMessage.attribute(type: cwire_rta_dst, value: destination)
    }

    /// RTM_GETLINK's body for the interface with `index`: a struct ifinfomsg.
    static func linkRequestBody(index: Int32) -> [UInt8] {
        // struct ifinfomsg: family, pad, type, then the index at offset 4.
        var body = [UInt8](repeating: 0, count: Int(cwire_sizeof_ifinfomsg))
        withUnsafeBytes(of: index) { body.replaceSubrange(4 ..< 8, with: $0) }
        return body
    }
}

extension SocketAddress {
    /// The address alone, in network order: 4 bytes (IPv4) or 16 (IPv6); nil for another family.
    var addressBytes: [UInt8]? {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: return Array(raw[4 ..< 8])      // sockaddr_in.sin_addr
            case AF_INET6: return Array(raw[8 ..< 24])    // sockaddr_in6.sin6_addr
            default: return nil
            }
        }
    }
}
