import CWireTransport

/// An interface as RTM_NEWLINK describes it.
struct LinkRecord: Equatable {
    let index: Int32
    let name: String
    /// ARPHRD_* hardware type.
    let hardwareType: UInt16
    /// IFF_* flags.
    let flags: UInt32
}

/// An address on an interface (RTM_NEWADDR / RTM_DELADDR).
struct AddressRecord: Hashable {
    let family: UInt8
    let interfaceIndex: Int32
    let prefixLength: UInt8
    let address: [UInt8]
}

/// A route (RTM_NEWROUTE / RTM_DELROUTE, and the kernel's answer to a route lookup).
struct RouteRecord: Hashable {
    let family: UInt8
    let destinationLength: UInt8
    let table: UInt32
    /// RTN_* route type (unicast, local, blackhole, unreachable, prohibit, …).
    let routeType: UInt8
    /// Absent for a default route.
    let destination: [UInt8]?
    /// Absent for a route that leaves through no single interface (blackhole, multipath).
    let outputInterface: Int32?
}

/// What one netlink message says, decoded. Messages of other types are `.other`.
enum NetlinkRecord: Equatable {
    case link(LinkRecord, removed: Bool)
    case address(AddressRecord, removed: Bool)
    case route(RouteRecord, removed: Bool)
    /// NLMSG_ERROR: 0 acknowledges a request, anything else is the errno of its failure.
    case error(errno: Int32)
    /// NLMSG_DONE: the end of a dump.
    case done
    /// NLMSG_OVERRUN, or a type this parser does not read.
    case other(type: UInt16)

    /// Decodes `message`; throws when its fixed part or an attribute does not fit (the caller
    /// skips that message and keeps the reason). Reads inside a fixed part are force-unwrapped:
    /// `attributes(after:)` has checked that the whole fixed part is there.
    static func decode(_ message: NetlinkMessage) throws(NetlinkParseError) -> NetlinkRecord {
        let type = Int32(message.type)
        let body = NetlinkBytes(bytes: message.payload)
        switch type {
        case Int32(cwire_nlmsg_done): return .done
        case Int32(cwire_nlmsg_error):
            guard let code = message.errorCode else {
                throw .truncatedBody(type: message.type, length: message.payload.count + NetlinkMessage.headerSize, needed: NetlinkMessage.headerSize + 4)
            }
            return .error(errno: code)
        case Int32(cwire_rtm_newlink), Int32(cwire_rtm_dellink):
            let attributes = try message.attributes(after: Int(cwire_sizeof_ifinfomsg))
            let name = attributes[UInt16(cwire_ifla_ifname)].map { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) } ?? ""
            return .link(LinkRecord(index: body.value(at: 4, as: Int32.self)!, name: name,
                                    hardwareType: body.value(at: 2, as: UInt16.self)!, flags: body.value(at: 8, as: UInt32.self)!),
                         removed: type == Int32(cwire_rtm_dellink))
        case Int32(cwire_rtm_newaddr), Int32(cwire_rtm_deladdr):
            let attributes = try message.attributes(after: Int(cwire_sizeof_ifaddrmsg))
            // IFA_LOCAL is the interface's own address on point-to-point links; IFA_ADDRESS elsewhere.
            let address = attributes[UInt16(cwire_ifa_local)] ?? attributes[UInt16(cwire_ifa_address)] ?? []
            return .address(AddressRecord(family: body.value(at: 0, as: UInt8.self)!, interfaceIndex: Int32(bitPattern: body.value(at: 4, as: UInt32.self)!),
                                          prefixLength: body.value(at: 1, as: UInt8.self)!, address: Array(address)),
                            removed: type == Int32(cwire_rtm_deladdr))
        case Int32(cwire_rtm_newroute), Int32(cwire_rtm_delroute):
            let attributes = try message.attributes(after: Int(cwire_sizeof_rtmsg))
            // RTA_TABLE carries tables above 255; the one-byte field then says RT_TABLE_COMPAT.
            let table = attributes[UInt16(cwire_rta_table)].flatMap { NetlinkBytes(bytes: $0).value(at: 0, as: UInt32.self) }
                ?? UInt32(body.value(at: 4, as: UInt8.self)!)
            let oif = attributes[UInt16(cwire_rta_oif)].flatMap { NetlinkBytes(bytes: $0).value(at: 0, as: Int32.self) }
            return .route(RouteRecord(family: body.value(at: 0, as: UInt8.self)!, destinationLength: body.value(at: 1, as: UInt8.self)!,
                                      table: table, routeType: body.value(at: 7, as: UInt8.self)!,
                                      destination: attributes[UInt16(cwire_rta_dst)].map { Array($0) }, outputInterface: oif),
                          removed: type == Int32(cwire_rtm_delroute))
        default:
            return .other(type: message.type)
        }
    }

    /// Every message of a datagram decoded; malformed ones are skipped, their reasons returned.
    static func decodeAll(_ datagram: ArraySlice<UInt8>) -> (records: [(sequence: UInt32, record: NetlinkRecord)], skipped: [NetlinkParseError]) {
        let (messages, splitError) = NetlinkMessage.split(datagram)
        var records: [(UInt32, NetlinkRecord)] = []
        var skipped: [NetlinkParseError] = []
        for message in messages {
            do { records.append((message.sequence, try decode(message))) } catch { skipped.append(error) }
        }
        if let splitError { skipped.append(splitError) }
        return (records, skipped)
    }
}
