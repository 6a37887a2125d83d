import CWireTransport
import Glibc
import Testing
@testable import WireTransport

/// The netlink parser on bytes made here: well-formed messages decode to their fields, and
/// malformed ones are skipped with their reason while the rest of the datagram still decodes.
@Suite("Netlink parser")
struct NetlinkParserTests {
    /// An RTM_NEWROUTE for 10.1.2.0/24 through interface 7 in the main table.
    static func routeMessage(sequence: UInt32 = 5, type: Int32 = Int32(cwire_rtm_newroute)) -> [UInt8] {
        var rtmsg = [UInt8](repeating: 0, count: Int(cwire_sizeof_rtmsg))
        rtmsg[0] = UInt8(AF_INET); rtmsg[1] = 24; rtmsg[4] = UInt8(cwire_rt_table_main); rtmsg[7] = UInt8(cwire_rtn_unicast)
        var oif: Int32 = 7
        let body = rtmsg + NetlinkMessage.attribute(type: cwire_rta_dst, value: [10, 1, 2, 0])
            + NetlinkMessage.attribute(type: cwire_rta_oif, value: withUnsafeBytes(of: &oif) { Array($0) })
        return NetlinkMessage.request(type: type, flags: 0, sequence: sequence, body: body)
    }

    /// An RTM_NEWLINK for "wpa", index 3, Ethernet, up and running.
    static func linkMessage() -> [UInt8] {
        var ifinfo = [UInt8](repeating: 0, count: Int(cwire_sizeof_ifinfomsg))
        withUnsafeBytes(of: UInt16(cwire_arphrd_ether)) { ifinfo.replaceSubrange(2 ..< 4, with: $0) }
        withUnsafeBytes(of: Int32(3)) { ifinfo.replaceSubrange(4 ..< 8, with: $0) }
        withUnsafeBytes(of: UInt32(IFF_UP | IFF_RUNNING)) { ifinfo.replaceSubrange(8 ..< 12, with: $0) }
        let body = ifinfo + NetlinkMessage.attribute(type: cwire_ifla_ifname, value: Array("wpa".utf8) + [0])
        return NetlinkMessage.request(type: Int32(cwire_rtm_newlink), flags: 0, sequence: 1, body: body)
    }

    static var doneMessage: [UInt8] { NetlinkMessage.request(type: Int32(cwire_nlmsg_done), flags: 0, sequence: 1, body: [0, 0, 0, 0]) }

    @Test func theFeedCountsMalformedNotificationsAndTakesOnlyRecordsOrLossAsAChange() {
        let feed = RouteChangeFeed()
        var bad = Self.routeMessage()
        bad[NetlinkMessage.headerSize + Int(cwire_sizeof_rtmsg)] = 200  // the first attribute claims 200 bytes
        #expect(!feed.absorb(bad[...], tooLong: nil), "a malformed message alone is no change")
        #expect(feed.skippedMessages.count == 1)
        #expect(feed.skippedMessages.lastReason == .badAttribute(type: UInt16(cwire_rtm_newroute), offset: 12, length: 200))
        #expect(feed.absorb((Self.routeMessage() + Self.doneMessage)[...], tooLong: nil))
        #expect(feed.skippedMessages.count == 1)
        #expect(feed.absorb([][...], tooLong: .datagramTooLong(length: 70_000, buffer: 65_536)), "lost notifications: evaluate again")
        #expect(feed.skippedMessages.count == 2)
        #expect(feed.skippedMessages.lastReason == .datagramTooLong(length: 70_000, buffer: 65_536), "the last reason is the latest one")
    }

    @Test func fixedPartSizesAreTheKernelHeadersOnes() {
        #expect(cwire_sizeof_nlmsghdr == Int32(NetlinkMessage.headerSize))
        #expect([cwire_sizeof_ifinfomsg, cwire_sizeof_ifaddrmsg, cwire_sizeof_rtmsg] == [16, 8, 12], "the offsets the decoder reads at")
    }

    @Test func routeAndLinkMessagesDecodeToTheirFields() {
        let (records, skipped) = NetlinkRecord.decodeAll((Self.routeMessage() + Self.linkMessage() + Self.doneMessage)[...])
        #expect(skipped.isEmpty)
        #expect(records.map(\.record) == [
            .route(RouteRecord(family: UInt8(AF_INET), destinationLength: 24, table: UInt32(cwire_rt_table_main),
                               routeType: UInt8(cwire_rtn_unicast), destination: [10, 1, 2, 0], outputInterface: 7), removed: false),
            .link(LinkRecord(index: 3, name: "wpa", hardwareType: UInt16(cwire_arphrd_ether), flags: UInt32(IFF_UP | IFF_RUNNING)), removed: false),
            .done,
        ])
        #expect(records.first?.sequence == 5)
    }

    /// An RTM_NEWADDR (or `type`) for interface 3, prefix `prefix`, with the given address attributes.
    static func addressMessage(type: Int32 = Int32(cwire_rtm_newaddr), family: Int32 = AF_INET, prefix: UInt8 = 24,
                               attributes: [(type: Int32, value: [UInt8])]) -> [UInt8] {
        var ifaddr = [UInt8](repeating: 0, count: Int(cwire_sizeof_ifaddrmsg))
        ifaddr[0] = UInt8(family); ifaddr[1] = prefix
        withUnsafeBytes(of: UInt32(3)) { ifaddr.replaceSubrange(4 ..< 8, with: $0) }
        let body = ifaddr + attributes.flatMap { NetlinkMessage.attribute(type: $0.type, value: $0.value) }
        return NetlinkMessage.request(type: type, flags: 0, sequence: 2, body: body)
    }

    @Test func anAddressMessageTakesTheLocalAddressFirstThenTheAddressAndReadsNeitherAsEmpty() {
        let pointToPoint = Self.addressMessage(attributes: [(cwire_ifa_address, [10, 0, 0, 2]), (cwire_ifa_local, [10, 0, 0, 1])])
        let removed = Self.addressMessage(type: Int32(cwire_rtm_deladdr), family: AF_INET6, prefix: 64,
                                          attributes: [(cwire_ifa_address, [0xFD] + [UInt8](repeating: 0, count: 14) + [1])])
        let bare = Self.addressMessage(attributes: [])
        let (records, skipped) = NetlinkRecord.decodeAll((pointToPoint + removed + bare)[...])
        #expect(skipped.isEmpty)
        #expect(records.map(\.record) == [
            .address(AddressRecord(family: UInt8(AF_INET), interfaceIndex: 3, prefixLength: 24, address: [10, 0, 0, 1]), removed: false),
            .address(AddressRecord(family: UInt8(AF_INET6), interfaceIndex: 3, prefixLength: 64,
                                   address: [0xFD] + [UInt8](repeating: 0, count: 14) + [1]), removed: true),
            .address(AddressRecord(family: UInt8(AF_INET), interfaceIndex: 3, prefixLength: 24, address: []), removed: false),
        ])
    }

    @Test func anErrorMessageCarriesThePositiveErrno() {
        var code = -ENETUNREACH
        let message = NetlinkMessage.request(type: Int32(cwire_nlmsg_error), flags: 0, sequence: 9, body: withUnsafeBytes(of: &code) { Array($0) } + [UInt8](repeating: 0, count: 16))
        #expect(NetlinkRecord.decodeAll(message[...]).records.map(\.record) == [.error(errno: ENETUNREACH)])
    }

    @Test func anAttributeOverrunningItsMessageSkipsThatMessageAndKeepsTheNext() {
        var bad = Self.routeMessage()
        bad[NetlinkMessage.headerSize + Int(cwire_sizeof_rtmsg)] = 200  // the first attribute claims 200 bytes
        let (records, skipped) = NetlinkRecord.decodeAll((bad + Self.linkMessage())[...])
        #expect(records.count == 1, "the link message after the bad one still decodes")
        #expect(skipped == [.badAttribute(type: UInt16(cwire_rtm_newroute), offset: 12, length: 200)])
    }

    @Test func aMessageShorterThanItsFixedPartIsSkippedWithItsSizes() {
        let short = NetlinkMessage.request(type: Int32(cwire_rtm_newroute), flags: 0, sequence: 1, body: [1, 2, 3, 4])
        let (records, skipped) = NetlinkRecord.decodeAll((short + Self.doneMessage)[...])
        #expect(records.map(\.record) == [.done])
        #expect(skipped == [.truncatedBody(type: UInt16(cwire_rtm_newroute), length: 20, needed: 28)])
    }

    @Test func aLengthPastTheDatagramEndsTheSplitAndKeepsWhatCameBefore() {
        var bad = Self.linkMessage()
        bad[0] = 250  // nlmsg_len far past the end
        let (records, skipped) = NetlinkRecord.decodeAll((Self.routeMessage() + bad)[...])
        #expect(records.count == 1)
        #expect(skipped.count == 1)
        if case .badMessageLength(let offset, 250, _)? = skipped.first {
            #expect(offset == Self.routeMessage().count)
        } else {
            Issue.record("expected badMessageLength, got \(skipped)")
        }
        #expect(NetlinkRecord.decodeAll([1, 2, 3][...]).skipped == [.truncatedHeader(offset: 0, remaining: 3)])
        var tooShort = Self.doneMessage
        tooShort[0] = 8  // below a header's 16 bytes: would loop on the same bytes if accepted
        #expect(NetlinkRecord.decodeAll(tooShort[...]).skipped == [.badMessageLength(offset: 0, length: 8, remaining: 20)])
    }

    /// Every prefix of a three-message datagram, and 20,000 seeded corruptions of it: the parser
    /// returns (never traps), and every byte is accounted for as a record or a skip reason.
    @Test func everyTruncationAndSeededCorruptionIsSkippedOrDecodedNeverATrap() {
        let datagram = Self.routeMessage() + Self.linkMessage() + Self.doneMessage
        for n in 0 ... datagram.count {
            let (records, skipped) = NetlinkRecord.decodeAll(datagram.prefix(n))
            #expect(records.count + skipped.count <= 3 + 1, "prefix \(n)")
        }
        let seed: UInt64 = 0x5EED_0F_9A7B
        var random = XorShiftStar(seed: seed)
        for round in 0 ..< 20_000 {
            var bytes = datagram
            for _ in 0 ... Int(random.next() % 4) { bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next()) }
            let (records, skipped) = NetlinkRecord.decodeAll(bytes[...])
            if records.count + skipped.count > bytes.count / NetlinkMessage.headerSize + 1 {
                Issue.record("seed \(seed) round \(round): \(records.count) records and \(skipped.count) skips from \(bytes.count) bytes")
                return
            }
        }
    }
}

/// xorshift64*: a seeded generator for the corruption test (the seed is printed on failure).
struct XorShiftStar {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 1 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
