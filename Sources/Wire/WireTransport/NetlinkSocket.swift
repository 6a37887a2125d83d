import CWireTransport
import Glibc
import Synchronization

/// A NETLINK_ROUTE socket of the network namespace of the thread that opened it (a socket keeps
/// its namespace for life, whichever thread uses it later).
///
/// Ownership: the descriptor belongs to `handle` (closed by its owner: the `IOChannel` a
/// subscription is installed in, or `query`'s own defer). Confined to one queue.
struct NetlinkSocket {
    let handle: SocketHandle

    /// Receive space per datagram. The kernel sizes a dump's datagrams to at most a few pages, so
    /// a longer one (reported through MSG_TRUNC) is skipped as malformed rather than read in part.
    static let receiveSize = 65536
    /// How long `query` waits for the kernel's answer (it answers from its own tables, at once).
    static let queryTimeoutMilliseconds: Int32 = 2000
    /// Datagrams `query` reads at most before it gives up on NLMSG_DONE: a bound on a dump, so a
    /// huge routing table costs bounded time (about 64 MiB of answers).
    static let queryDatagramLimit = 1024

    /// Wraps a socket opened by `init(groups:)` (a watcher's, read through its IOChannel).
    init(handle: SocketHandle) { self.handle = handle }

    /// Opens the socket, joined to `groups` (RTMGRP_* bits; 0 for a socket that only asks).
    init(groups: UInt32) throws(WireError) {
        let fd: Int32
        do {
            fd = try Sys.retryingEINTR("socket(AF_NETLINK)") {
                Glibc.socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), cwire_netlink_route)
            }
        } catch { throw error.wireError }
        handle = SocketHandle(taking: fd)
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = groups
        do {
            _ = try Sys.retryingEINTR("bind(AF_NETLINK)") {
                // SAFETY: `address` outlives the call; its size is passed.
                withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
                } }
            }
        } catch {
            handle.close()
            throw error.wireError
        }
    }

    func send(_ request: [UInt8]) throws(SystemError) {
        _ = try handle.withDescriptor { fd throws(SystemError) in try Sys.send(fd, request) }
    }

    /// One datagram, or nil when none is waiting (EAGAIN). A datagram longer than the buffer is
    /// returned empty with the reason.
    func receive(into buffer: DatagramBuffer) throws(SystemError) -> (bytes: ArraySlice<UInt8>, tooLong: NetlinkParseError?)? {
        let slot = buffer.slot(0)
        let length: Int
        do {
            length = try handle.withDescriptor { fd throws(SystemError) in
                try Sys.retryingEINTR("recv(AF_NETLINK)") { Glibc.recv(fd, slot.baseAddress, slot.count, Int32(MSG_TRUNC)) }
            }
        } catch {
            if error.wouldBlock { return nil }
            throw error
        }
        guard length <= slot.count else { return ([], .datagramTooLong(length: length, buffer: slot.count)) }
        return (Array(slot.prefix(length))[...], nil)
    }

    /// Waits up to `milliseconds` for a datagram (poll(2)); false on timeout.
    func waitReadable(milliseconds: Int32) throws(SystemError) -> Bool {
        try handle.withDescriptor { fd throws(SystemError) in
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return try Sys.retryingEINTR("poll(AF_NETLINK)") { Glibc.poll(&entry, 1, milliseconds) } > 0
        }
    }

    /// Sends `request` on a socket of its own and collects the kernel's answer to it: every record
    /// up to NLMSG_DONE (a dump) or the first record (a single answer, or NLMSG_ERROR). Blocking,
    /// bounded by `queryTimeoutMilliseconds` per datagram and `queryDatagramLimit` datagrams.
    /// Messages that fail to parse are skipped and their reasons returned.
    static func query(_ request: [UInt8], sequence: UInt32, dump: Bool)
        throws(WireError) -> (records: [NetlinkRecord], skipped: [NetlinkParseError]) {
        let socket = try NetlinkSocket(groups: 0)
        defer { socket.handle.close() }
        let buffer = DatagramBuffer(count: 1, size: receiveSize)
        var records: [NetlinkRecord] = [], skipped: [NetlinkParseError] = []
        do {
            try socket.send(request)
            for _ in 0 ..< queryDatagramLimit {
                guard try socket.waitReadable(milliseconds: queryTimeoutMilliseconds) else {
                    throw WireError.posix(call: "netlink query (no answer)", errno: ETIMEDOUT)
                }
                guard let (bytes, tooLong) = try socket.receive(into: buffer) else { continue }
                if let tooLong { skipped.append(tooLong); continue }
                let decoded = NetlinkRecord.decodeAll(bytes)
                skipped += decoded.skipped
                for (seq, record) in decoded.records where seq == sequence {
                    switch record {
                    case .done: return (records, skipped)
                    case .error where dump: records.append(record); return (records, skipped)
                    default:
                        records.append(record)
                        if !dump { return (records, skipped) }
                    }
                }
            }
        } catch let error as SystemError {
            throw error.wireError
        } catch let error as WireError {
            throw error
        } catch {
            throw .posix(call: "netlink query", errno: EIO)
        }
        throw .posix(call: "netlink query (more than \(queryDatagramLimit) datagrams)", errno: EMSGSIZE)
    }

    /// Sequence numbers for requests of this process (any value works; distinct ones keep a late
    /// answer from being taken for the next request's).
    private static let lastSequence = Atomic<UInt32>(0)
    static func nextSequence() -> UInt32 { lastSequence.wrappingAdd(1, ordering: .relaxed).newValue }
}
