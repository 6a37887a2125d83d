import CWireTransport
import Dispatch
import Foundation
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
/// subscriber's). The channel is used and closed only on `queue`; the subscriber table, the
/// channel reference and the counters are guarded by `lock`, held only for a few assignments.
/// Callers never wait for `queue`: with hundreds of connections starting at once, a `sync` onto
/// one shared queue from each of theirs held every Dispatch worker and starved the queue itself.
/// Subscribers' callbacks run on `queue` and must only hop to their own queue.
final class RouteChangeFeed: @unchecked Sendable {
    static let shared = RouteChangeFeed()

    /// Datagrams read per readable event before yielding the queue (the source fires again).
    static let datagramsPerWakeup = 64

    private let queue = DispatchQueue(label: "wire.netlink.feed")
    private let lock = NSLock()
    // Guarded by `lock`.
    private var channel: IOChannel?
    private var subscribers: [UInt64: @Sendable () -> Void] = [:]
    private var lastToken: UInt64 = 0
    private var skipped = 0
    private var lastSkipReason: NetlinkParseError?
    // Confined to `queue`.
    private lazy var buffer = DatagramBuffer(count: 1, size: NetlinkSocket.receiveSize)

    /// Adds `notify`, called on the feed's queue after each batch of notifications that held a
    /// change (or lost some: ENOBUFS, a datagram too long); opens the socket first when it is
    /// closed. Returns the token `unsubscribe` takes. Throws when netlink cannot be opened.
    func subscribe(_ notify: @escaping @Sendable () -> Void) throws(WireError) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        if channel == nil {
            let socket = try NetlinkSocket(groups: cwire_rtmgrp_watched)
            let opened = IOChannel(socket: socket.handle, queue: queue)
            channel = opened
            queue.async {
                // The feed is the process's, never released: no cycle to break.
                opened.onReadable = { [unowned self] in self.drain(opened) }
                opened.armRead(true)
            }
        }
        lastToken += 1
        subscribers[lastToken] = notify
        return lastToken
    }

    /// Removes a subscriber; the last one out closes the socket (on the feed's queue, soon). A
    /// `notify` already on its way may still run once.
    func unsubscribe(_ token: UInt64) {
        lock.lock()
        subscribers[token] = nil
        let closing = subscribers.isEmpty ? channel : nil
        if closing != nil { channel = nil }
        lock.unlock()
        if let closing { queue.async { closing.close() } }
    }

    /// Malformed notifications skipped since the process started, and the last reason.
    var skippedMessages: (count: Int, lastReason: NetlinkParseError?) {
        lock.lock()
        defer { lock.unlock() }
        return (skipped, lastSkipReason)
    }

    /// Whether the socket is open, and how many watchers share it.
    var subscription: (isOpen: Bool, subscribers: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (channel != nil, subscribers.count)
    }

    /// On `queue`: reads what `channel` holds, unless it was closed since.
    private func drain(_ channel: IOChannel) {
        guard !channel.isClosed else { return }
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
            if absorb(bytes, tooLong: tooLong) { changed = true }
        }
        guard changed else { return }
        lock.lock()
        let notified = Array(subscribers.values)
        lock.unlock()
        for notify in notified { notify() }
    }

    /// One datagram: whether it says something changed (a record, or notifications lost to a
    /// datagram too long to read); malformed messages are counted, not a change.
    func absorb(_ bytes: ArraySlice<UInt8>, tooLong: NetlinkParseError?) -> Bool {
        if let tooLong {
            note(tooLong)
            return true
        }
        let decoded = NetlinkRecord.decodeAll(bytes)
        decoded.skipped.forEach(note)
        return !decoded.records.isEmpty
    }

    private func note(_ reason: NetlinkParseError) {
        lock.lock()
        skipped += 1
        lastSkipReason = reason
        lock.unlock()
    }
}
