import Dispatch
import Foundation
import Glibc
import WireTransport

/// `wirebench udp-burst`: `bursts` bursts of `size` datagrams of `bytes` bytes each, sent over one
/// connected UDP Connection to a loopback receiver, either one `send` per datagram or all of a
/// burst inside `batch { }`. The next burst starts when the last datagram's completion ran. Prints
/// one line with the process's CPU time (user + system, all threads) for the sending phase, so the
/// script can run both modes side by side (and once more under strace to count syscalls).
enum UDPBurst {
    static func run(batched: Bool, bursts: Int, size: Int, bytes: Int) throws -> Int32 {
        // The receiver: a bound socket nobody reads (a Listener would read and drop every
        // datagram on a thread of this process, and that CPU would blur the comparison). Datagrams
        // beyond its buffer are dropped by the kernel at no cost to the sender; it exists so that
        // sends do not fail with ECONNREFUSED (ICMP port unreachable).
        let sink = try UnreadUDPSocket()
        defer { sink.close() }
        let port = sink.port

        let connection = Connection(host: "127.0.0.1", port: port, using: .udp)
        let connected = DispatchSemaphore(value: 0)
        connection.stateUpdateHandler = { if $0 == .ready { connected.signal() } }
        let queue = DispatchQueue(label: "bench.sender")
        connection.start(queue: queue)
        guard connected.wait(timeout: .now() + 5) == .success else { throw WireError.notConnected }

        let payload = Data(repeating: 0x5A, count: bytes)
        let failures = Counter()
        let before = cpuSeconds()
        let start = Date()
        for _ in 0 ..< bursts {
            let done = DispatchSemaphore(value: 0)
            let send = { (last: Bool) in
                connection.send(content: payload) { error in
                    if error != nil { failures.add("send") }
                    if last { done.signal() }
                }
            }
            if batched {
                connection.batch { for i in 0 ..< size { send(i == size - 1) } }
            } else {
                for i in 0 ..< size { send(i == size - 1) }
            }
            done.wait()
        }
        let cpu = cpuSeconds() - before
        let wall = Date().timeIntervalSince(start)
        connection.cancel()
        let datagrams = bursts * size
        print(String(format: "udp-burst mode=%@ datagrams=%d cpu_s=%.4f wall_s=%.4f cpu_us_per_datagram=%.3f failures=%d",
                     batched ? "batched" : "individual", datagrams, cpu, wall, cpu / Double(datagrams) * 1e6, failures["send"]))
        return failures["send"] == 0 ? 0 : 1
    }

    /// User + system CPU seconds of the whole process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// A UDP socket bound to 127.0.0.1 on a free port and never read; its one owner closes it.
final class UnreadUDPSocket {
    private var fd: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw WireError.posix(call: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        // SAFETY: `address` is a live sockaddr_in and `length` its size; bind and getsockname
        // read and write at most `length` bytes of it.
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            let e = errno
            Glibc.close(fd)
            throw WireError.posix(call: "bind", errno: e)
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }
}
