import CWireTransport
import Dispatch
import Glibc

/// The process's one subscription to the kernel's link, address and route notifications, shared
/// by every `PathWatcher` (each outbound connection's and each `PathMonitor`'s): one netlink
/// socket however many connections watch their paths, and one wake-up per notification instead
/// of one per connection.
///
/// Notifications are parsed here only to tell a change from noise and to count malformed ones; a
/// subscriber learns "something changed" and asks the kernel itself (`PathWatcher` never patches
/// a path from notifications).
///
/// Ownership: the socket belongs to `channel`, opened by the first subscriber and closed when the
/// last one leaves. It lives in the network namespace of the thread that opened it (the first
/// subscriber's). Every member is confined to `queue`; subscribers' callbacks are called there
/// and must only hop to their own queue (never `sync` back), which keeps the feed free of
/// lock-order cycles.
final class RouteChangeFeed: @unchecked Sendable {
    static let shared = RouteChangeFeed()

    /// Datagrams read per readable event before yielding the queue (the source fires again).
    static let datagramsPerWakeup = 64

    private let queue = DispatchQueue(label: "wire.netlink.feed")
    private var channel: IOChannel?
    private var subscribers: [UInt64: @Sendable () -> Void] = [:]
    private var lastToken: UInt64 = 0
    private var skipped = 0
    private var lastSkipReason: NetlinkParseError?
    private lazy var buffer = DatagramBuffer(count: 1, size: NetlinkSocket.receiveSize)

    /// Adds `notify`, called on the feed's queue after each batch of notifications that held a
    /// change (or lost some: ENOBUFS, a datagram too long); opens the socket first when it is
    /// closed. Returns the token `unsubscribe` takes. Throws when netlink cannot be opened.
    func subscribe(_ notify: @escaping @Sendable () -> Void) throws(WireError) -> UInt64 {
        let opened: Result<UInt64, WireError> = queue.sync {
            if channel == nil {
                do throws(WireError) {
                    let socket = try NetlinkSocket(groups: cwire_rtmgrp_watched)
                    let channel = IOChannel(socket: socket.handle, queue: queue)
                    // The feed is the process's, never released: no cycle to break.
                    channel.onReadable = { [unowned self] in self.drain() }
                    channel.armRead(true)
                    self.channel = channel
                } catch {
                    return .failure(error)
                }
            }
            lastToken += 1
            subscribers[lastToken] = notify
            return .success(lastToken)
        }
        return try opened.get()
    }

    /// Removes a subscriber; the last one out closes the socket. No call to its `notify` starts
    /// after this returns.
    func unsubscribe(_ token: UInt64) {
        queue.sync {
            subscribers[token] = nil
            if subscribers.isEmpty {
                channel?.close()
                channel = nil
            }
        }
    }

    /// Malformed notifications skipped since the process started, and the last reason.
    var skippedMessages: (count: Int, lastReason: NetlinkParseError?) { queue.sync { (skipped, lastSkipReason) } }

    /// Whether the socket is open, and how many watchers share it.
    var subscription: (isOpen: Bool, subscribers: Int) { queue.sync { (channel != nil, subscribers.count) } }

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
        if changed { for notify in subscribers.values { notify() } }
    }

    private func note(_ reason: NetlinkParseError) {
        skipped += 1
        lastSkipReason = reason
    }
}
