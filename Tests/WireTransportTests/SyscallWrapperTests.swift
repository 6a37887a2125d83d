import Glibc
import Testing
@testable import WireTransport

/// The system call wrappers on loopback sockets made here: what they return, and how a failure
/// names its call. Every socket is closed by its handle.
@Suite struct SyscallWrapperTests {
    /// A UDP socket bound to 127.0.0.1 on a free port, and that port.
    private func boundUDP() throws -> (SocketHandle, UInt16) {
        let socket = SocketHandle(taking: try Sys.socket(domain: AF_INET, type: Sys.datagram))
        let port = try socket.withDescriptor { fd throws(SystemError) -> UInt16 in
            try Sys.bind(fd, loopback("127.0.0.1", port: 0))
            return try Sys.localAddress(fd).port
        }
        return (socket, port)
    }

    @Test func recvmmsgReturnsEachDatagramCutToTheSizeWithItsTruncationAndSource() throws {
        let (receiver, receiverPort) = try boundUDP()
        let (sender, senderPort) = try boundUDP()
        defer { receiver.close(); sender.close() }
        try sender.withDescriptor { fd throws(SystemError) in
            try Sys.connect(fd, loopback("127.0.0.1", port: receiverPort))
            // Three datagrams in one call: sendmmsg reports how many went.
            #expect(try Sys.sendmmsg(fd, [pattern(3), pattern(10, seed: 1), pattern(5, seed: 2)][...]) == 3)
        }
        let got = try receiver.withDescriptor { fd throws(SystemError) -> [Sys.Datagram] in
            var readable = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&readable, 1, 5_000)
            return try Sys.recvmmsg(fd, into: DatagramBuffer(count: 4, size: 8), size: 5)
        }
        #expect(got.map(\.bytes) == [pattern(3), Array(pattern(10, seed: 1).prefix(5)), pattern(5, seed: 2)])
        #expect(got.map(\.truncated) == [false, true, false], "only the 10-byte datagram was longer than 5")
        #expect(got.allSatisfy { $0.source == loopback("127.0.0.1", port: senderPort) })
    }

    @Test func aFailedCallThrowsItsNameAndErrnoAndWouldBlockIsTold() throws {
        let (socket, port) = try boundUDP()
        defer { socket.close() }
        do {
            _ = try socket.withDescriptor { fd throws(SystemError) in try Sys.recv(fd, into: DatagramBuffer(count: 1, size: 4).slot(0)) }
            Issue.record("recv on an empty non-blocking socket returned")
        } catch {
            #expect(error.call == "recv" && error.wouldBlock && error.wireError == .posix(call: "recv", errno: EAGAIN))
        }
        let second = SocketHandle(taking: try Sys.socket(domain: AF_INET, type: Sys.datagram))
        defer { second.close() }
        for purpose in [nil, "requiredLocalEndpoint 127.0.0.1"] {
            do {
                try second.withDescriptor { fd throws(SystemError) in try Sys.bind(fd, loopback("127.0.0.1", port: port), purpose: purpose) }
                Issue.record("a second bind to a taken port succeeded")
            } catch {
                #expect(error.call == (purpose.map { "bind(\($0))" } ?? "bind") && error.errno == EADDRINUSE && !error.wouldBlock)
            }
        }
        #expect(try socket.withDescriptor { fd throws(SystemError) in try Sys.pendingError(fd) } == 0)
    }
}
