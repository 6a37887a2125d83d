import CWireTransport
import Glibc

/// A failed system call: its name and errno, read immediately after the call returned.
struct SystemError: Error {
    let call: String
    let errno: Int32
    var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
    var wireError: WireError { .posix(call: call, errno: errno) }
}

/// One wrapper per system call the transport makes (swift-system's discipline): errno is read right
/// after the call, EINTR is retried here and nowhere else, and a failure throws a `SystemError`
/// naming the call. Callers never touch errno. Descriptors are opened non-blocking and close-on-exec.
enum Sys {
    /// Runs `body` until it does not fail with EINTR. `-1` is failure for every call wrapped here.
    @inline(__always)
    static func retryingEINTR<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            let e = cwire_errno()
            if e == EINTR { continue }
            throw SystemError(call: call, errno: e)
        }
    }

    /// socket(2), non-blocking and close-on-exec.
    static func socket(domain: Int32, type: Int32) throws(SystemError) -> Int32 {
        try retryingEINTR("socket") { Glibc.socket(domain, type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    static let stream = cwire_sock_stream
    static let datagram = cwire_sock_dgram
    static func socketType(datagram: Bool) -> Int32 { datagram ? Sys.datagram : Sys.stream
    }

    /// close(2). Never retried: on Linux the descriptor is released even when close reports EINTR,
    /// and a retry could close a descriptor another thread just received.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// connect(2); EINPROGRESS is reported as a `SystemError` the caller checks.
    static func connect(_ fd: Int32, _ address: SocketAddress) throws(SystemError) {
        _ = try retryingEINTR("connect") {
            address.withSockAddr { Glibc.connect(fd, $0, $1) }
        }
    }

    /// bind(2); `purpose` names the option that asked for it in the error ("bind(requiredLocalEndpoint …)").
    static func bind(_ fd: Int32, _ address: SocketAddress, purpose: String? = nil) throws(SystemError) {
        _ = try retryingEINTR(purpose.map { "bind(\($0))" } ?? "bind") { address.withSockAddr { Glibc.bind(fd, $0, $1) } }
    }

    static func listen(_ fd: Int32, backlog: Int32) throws(SystemError) {
        _ = try retryingEINTR("listen") { Glibc.listen(fd, backlog) }
    }

    /// accept4(2), non-blocking and close-on-exec; returns the new descriptor and the peer address.
    static func accept(_ fd: Int32) throws(SystemError) -> (Int32, SocketAddress) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        // SAFETY: storage outlives the call and length holds its size.
        let client = try retryingEINTR("accept4") { cwire_accept4(fd, &storage, &length) }
        return (client, SocketAddress(storage: storage, length: length))
    }

    /// send(2) of `bytes[offset...]` with MSG_NOSIGNAL (a closed peer is EPIPE, never SIGPIPE).
    static func send(_ fd: Int32, _ bytes: [UInt8], from offset: Int = 0) throws(SystemError) -> Int {
        try retryingEINTR("send") {
            bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// sendto(2) with MSG_NOSIGNAL.
    static func sendto(_ fd: Int32, _ bytes: [UInt8], _ address: SocketAddress) throws(SystemError) -> Int {
        try retryingEINTR("sendto") {
            bytes.withUnsafeBytes { buffer in
                address.withSockAddr { Glibc.sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), $0, $1) }
            }
        }
    }

    /// recv(2) into `buffer` (its whole count); 0 is end of stream (TCP) or an empty datagram (UDP).
    static func recv(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try retryingEINTR("recv") { Glibc.recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// sendmmsg(2): every datagram in one call on a connected socket (see cwire_sendmmsg); at most
    /// CWIRE_MAX_BATCH. Returns how many were sent.
    static func sendmmsg(_ fd: Int32, _ datagrams: ArraySlice<[UInt8]>) throws(SystemError) -> Int {
        precondition(datagrams.count <= Int(CWIRE_MAX_BATCH))
        let pinned = Array(datagrams)
        return Int(try retryingEINTR("sendmmsg") { () -> Int32 in
            var iovecs = [iovec](repeating: iovec(), count: pinned.count)
            for i in pinned.indices {
                // SAFETY: the base address escapes the closure, but `pinned` is neither mutated nor
                // released until this call returns, so its storage stays where it is; the kernel only reads.
                pinned[i].withUnsafeBytes { iovecs[i] = iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
            }
            return withExtendedLifetime(pinned) { cwire_sendmmsg(fd, iovecs, UInt32(iovecs.count), nil, nil) }
        })
    }

    /// One datagram from recvmmsg: its bytes (up to the buffer size), whether it was longer, its source.
    struct Datagram {
        var bytes: [UInt8]
        var truncated: Bool
        var source: SocketAddress
    }

    /// recvmmsg(2), non-blocking: up to `buffer.count` datagrams of up to `size` bytes each
    /// (at most `buffer.size`), received into the caller's reusable buffer and copied out.
    static func recvmmsg(_ fd: Int32, into buffer: DatagramBuffer, size: Int) throws(SystemError) -> [Datagram] {
        let count = buffer.count, length = min(size, buffer.size)
        var lengths = [UInt32](repeating: 0, count: count)
        var truncated = [Int32](repeating: 0, count: count)
        var addresses = [sockaddr_storage](repeating: sockaddr_storage(), count: count)
        var addressLengths = [socklen_t](repeating: 0, count: count)
        // SAFETY: each slot is `buffer.size` >= `length` bytes of the buffer's own allocation, alive
        // for the buffer's lifetime and touched only on its owner's queue (this call's thread).
        var iovecs = (0 ..< count).map { iovec(iov_base: buffer.slot($0).baseAddress, iov_len: length) }
        let got = Int(try retryingEINTR("recvmmsg") { () -> Int32 in
            cwire_recvmmsg(fd, &iovecs, UInt32(count), &lengths, &truncated, &addresses, &addressLengths)
        })
        return (0 ..< got).map { i in
            Datagram(bytes: Array(buffer.slot(i).prefix(Int(lengths[i]))), truncated: truncated[i] != 0,
                     source: SocketAddress(storage: addresses[i], length: addressLengths[i]))
        }
    }

    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) throws(SystemError) {
        var v = value
        _ = try retryingEINTR("setsockopt") { Glibc.setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// setsockopt(SO_BINDTODEVICE): the socket sends and receives through interface `name` only.
    static func bindToDevice(_ fd: Int32, _ name: String) throws(SystemError) {
        let bytes = Array(name.utf8)
        _ = try retryingEINTR("setsockopt(SO_BINDTODEVICE \"\(name)\")") {
            Glibc.setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, bytes, socklen_t(bytes.count))
        }
    }

    /// shutdown(SHUT_WR): the peer reads end of stream; this side can still read.
    static func shutdownWrite(_ fd: Int32) throws(SystemError) {
        _ = try retryingEINTR("shutdown") { Glibc.shutdown(fd, Int32(SHUT_WR)) }
    }

    /// SO_LINGER {on, 0}: the next close sends RST instead of FIN (used to refuse a connection).
    static func setLingerZero(_ fd: Int32) throws(SystemError) {
        var l = linger(l_onoff: 1, l_linger: 0)
        _ = try retryingEINTR("setsockopt(SO_LINGER)") { Glibc.setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size)) }
    }

    /// getsockopt(SO_ERROR): the outcome of a non-blocking connect.
    static func pendingError(_ fd: Int32) throws(SystemError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try retryingEINTR("getsockopt(SO_ERROR)") { Glibc.getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) }
        return value
    }

    static func localAddress(_ fd: Int32) throws(SystemError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try retryingEINTR("getsockname") {
            // SAFETY: storage outlives the call and length holds its size.
            withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.getsockname(fd, $0, &length) } }
        }
        return SocketAddress(storage: storage, length: length)
    }
}

/// Receive space for `Sys.recvmmsg` (and, with one slot, for a stream's recv / SSL_read): `count` slots of `size` bytes, allocated once by its owner (a
/// UDP connection or listener) and reused by every call, instead of allocating and zeroing
/// count x size bytes per call (16 x 64 KiB per readable event made UDP 4x slower than TCP in
/// `make netfuzz`). Confined to the owner's serial queue.
final class DatagramBuffer {
    let count: Int
    let size: Int
    // SAFETY: allocated here with count * size bytes and freed exactly once in deinit; slots are
    // disjoint ranges inside it.
    private let storage: UnsafeMutableRawBufferPointer

    init(count: Int, size: Int) {
        self.count = count
        self.size = size
        storage = .allocate(byteCount: count * size, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Slot `i` (0 ..< count).
    func slot(_ i: Int) -> UnsafeMutableRawBufferPointer {
        precondition(i >= 0 && i < count, "DatagramBuffer: slot \(i) of \(count)")
        return UnsafeMutableRawBufferPointer(rebasing: storage[i * size ..< (i + 1) * size])
    }
}
