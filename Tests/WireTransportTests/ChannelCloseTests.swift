import Dispatch
import Glibc
import Testing
@testable import WireTransport

/// `IOChannel.close()` releases the descriptor once every source it made has run its cancel
/// handler, whatever state the sources were in; the peer of a socket pair sees that as end of
/// stream. Every wait is bounded (5 s).
@Suite struct ChannelCloseTests {
    /// A socket pair whose first end belongs to a channel on `queue`; the second end stays with
    /// the test (closed by the caller).
    private func channelPair(_ label: String) throws -> (IOChannel, DispatchQueue, peer: Int32) {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let queue = DispatchQueue(label: label)
        let channel = queue.sync { IOChannel(socket: SocketHandle(taking: pair[0]), queue: queue) }
        return (channel, queue, pair[1])
    }

    /// Whether the channel's end of the pair is closed: the peer reads end of stream (bounded).
    private func peerSeesEndOfStream(_ peer: Int32) -> Bool {
        var readable = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        return poll(&readable, 1, 5_000) == 1 && Glibc.recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    @Test func aChannelNeverArmedStillClosesItsDescriptor() throws {
        // Its read source was never activated: close() must activate it, or the cancel handler
        // that closes the descriptor never runs.
        let (channel, queue, peer) = try channelPair("channel-close-inactive")
        defer { Glibc.close(peer) }
        queue.sync { channel.close() }
        #expect(peerSeesEndOfStream(peer), "the never-armed channel's descriptor was closed")
        #expect(queue.sync { !channel.socket.isOpen })
    }

    @Test func aChannelClosedWithItsWriteSourceArmedClosesItsDescriptorAfterBothCancels() throws {
        // Arming twice makes one write source, not two: a second one would never be cancelled,
        // and the descriptor would wait for its cancel handler for ever.
        let (channel, queue, peer) = try channelPair("channel-close-write-armed")
        defer { Glibc.close(peer) }
        queue.sync {
            channel.armRead(true)
            channel.armWrite(true)
            channel.armWrite(true)
            channel.close()
            // Both cancel handlers are still queued behind this block: the socket is open.
            #expect(channel.socket.isOpen, "closed before the sources' cancel handlers ran")
        }
        #expect(peerSeesEndOfStream(peer), "the descriptor was closed once both sources were cancelled")
        #expect(queue.sync { !channel.socket.isOpen })
    }

    @Test func aWriteSourceDisarmedBeforeCloseIsCountedOutOnce() throws {
        // Disarm then close: the write source's cancel handler and the read source's each count
        // one source out, and the last one closes the descriptor.
        let (channel, queue, peer) = try channelPair("channel-close-write-disarmed")
        defer { Glibc.close(peer) }
        queue.sync {
            channel.armWrite(true)
            channel.armWrite(false)
            channel.close()
        }
        #expect(peerSeesEndOfStream(peer))
    }

    @Test func closeDropsTheReadinessHandlersAndIgnoresASecondClose() throws {
        // The handlers capture the channel's owner; close() lets go of them at once.
        let (channel, queue, peer) = try channelPair("channel-close-handlers")
        defer { Glibc.close(peer) }
        queue.sync {
            channel.onReadable = {}
            channel.onWritable = {}
            channel.armRead(true)
            #expect(!channel.isClosed)
            channel.close()
            #expect(channel.isClosed)
            #expect(channel.onReadable == nil && channel.onWritable == nil)
            channel.close()  // idempotent: no second cancel (Dispatch would trap on it)
            channel.armWrite(true)  // ignored once closed: no write source on a closing descriptor
        }
        #expect(peerSeesEndOfStream(peer))
    }
}
