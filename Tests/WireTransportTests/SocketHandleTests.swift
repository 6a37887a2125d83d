import Dispatch
import Glibc
import Testing
@testable import WireTransport

/// The descriptor owner every socket goes through: once closed it never hands its old number to
/// a system call (the kernel may already have given that number to another socket).
@Suite struct SocketHandleTests {
    @Test func aClosedHandleRefusesUseWithEBADFAndNeverRunsTheCall() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        let handle = SocketHandle(taking: fd)
        #expect(handle.isOpen)
        #expect(try handle.withDescriptor { $0 } == fd)
        handle.close()
        #expect(!handle.isOpen)
        var ran = false
        do {
            try handle.withDescriptor { _ in ran = true }
            Issue.record("a closed handle ran the call")
        } catch {
            #expect(error.call == "use after close" && error.errno == EBADF)
        }
        #expect(!ran)
        handle.close()  // a second close does nothing
        #expect(!handle.isOpen)
    }

    @Test(arguments: [[true, false, true], [false], [false, true]])
    func aChannelClosedWhileItsReadSourceIsSuspendedIgnoresLaterArming(_ afterClose: [Bool]) throws {
        // close() resumes a suspended read source so it can be cancelled; arming it afterwards
        // must not resume it a second time (Dispatch traps on an over-resume), and disarming it
        // must not suspend it again (its cancel handler, which closes the descriptor, would wait).
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { Glibc.close(pair[1]) }
        let queue = DispatchQueue(label: "socket-handle-test")
        let released = DispatchSemaphore(value: 0)
        queue.sync {
            let channel = IOChannel(socket: SocketHandle(taking: pair[0]), queue: queue)
            channel.armRead(true)
            channel.armRead(false)
            channel.close()
            for on in afterClose { channel.armRead(on) }
            #expect(channel.isClosed)
        }
        // The descriptor is closed once the cancel handlers ran: the peer sees end of stream.
        queue.async { released.signal() }
        #expect(released.wait(timeout: .now() + 5) == .success)
        var byte: UInt8 = 0
        var readable = pollfd(fd: pair[1], events: Int16(POLLIN), revents: 0)
        #expect(poll(&readable, 1, 5_000) == 1 && Glibc.recv(pair[1], &byte, 1, 0) == 0)
    }

    /// A read armed while a write source is being cancelled takes effect once that cancel is
    /// through, once: a later disarm is not undone by the next write source's cancel.
    @Test func aReadArmedWhileAWriteSourceClosesTakesEffectOnceItHasClosedAndOnlyOnce() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { Glibc.close(pair[1]) }
        let queue = DispatchQueue(label: "socket-handle-deferred-read")
        let readable = DispatchSemaphore(value: 0)
        let readableCount = Counter()
        let channel = queue.sync { IOChannel(socket: SocketHandle(taking: pair[0]), queue: queue) }
        defer { queue.sync { channel.close() } }
        queue.sync {
            channel.onReadable = {
                readableCount.value += 1
                readable.signal()
                channel.armRead(false)  // level-triggered: stop at the first event
            }
            channel.armWrite(true)
            channel.armWrite(false)  // its cancel handler runs later on the queue
            channel.armRead(true)    // so this arm waits for it
        }
        var byte: UInt8 = 7
        #expect(Glibc.send(pair[1], &byte, 1, 0) == 1)
        #expect(readable.wait(timeout: .now() + 5) == .success, "the deferred arm took effect")
        queue.sync {
            var drained: UInt8 = 0
            _ = Glibc.recv(pair[0], &drained, 1, 0)
            channel.armWrite(true)
            channel.armWrite(false)  // a second cancel: the first arm must not be applied again
        }
        queue.sync {}  // the second cancel handler has run
        #expect(Glibc.send(pair[1], &byte, 1, 0) == 1)
        #expect(readable.wait(timeout: .now() + 0.3) == .timedOut, "read stays disarmed")
        #expect(queue.sync { readableCount.value } == 1)
    }
}

/// A count kept by a handler and read by the test.
private final class Counter: @unchecked Sendable {
    // SAFETY: touched only on the channel's queue (the handler runs there; the test reads it
    // through queue.sync).
    var value = 0
}
