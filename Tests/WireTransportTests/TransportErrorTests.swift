import Glibc
import Testing
@testable import WireTransport

/// The transport's one error type: what each case says, and which connect errors are retried.
@Suite struct TransportErrorTests {
    @Test func eachCaseDescribesWhatFailedAndWhy() {
        let cases: [(WireError, String)] = [
            (.posix(call: "connect", errno: ECONNREFUSED), "connect: Connection refused (errno \(ECONNREFUSED))"),
            (.resolution(host: "x.invalid", reason: "Name or service not known"), "cannot resolve x.invalid: Name or service not known"),
            (.tls(reason: "handshake failed"), "TLS: handshake failed"),
            (.invalidArgument("no key"), "invalid argument: no key"),
            (.notConnected, "not connected"),
            (.cancelled, "cancelled"),
            (.datagramTruncated(length: 101), "datagram longer than the receive's maximum (101 bytes)"),
            (.timedOut(.connect, seconds: 1.5), "connect timed out after 1.5 s"),
            (.timedOut(.tlsHandshake, seconds: 2), "TLS handshake timed out after 2.0 s"),
            (.serviceResolution(service: "a._t._tcp.local.", reason: "gone"), "cannot resolve service a._t._tcp.local.: gone"),
            (.pathUnsatisfied(reason: "no route"), "no usable path: no route"),
        ]
        for (error, text) in cases { #expect(error.description == text) }
    }

    @Test func onlyRefusalsUnreachablesResetsAndConnectTimeoutsAreRetried() {
        let retried: [Int32] = [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ETIMEDOUT, ENETDOWN, EHOSTDOWN, ECONNRESET, EADDRNOTAVAIL]
        for e in retried { #expect(WireError.posix(call: "connect", errno: e).isRecoverableConnectError, "errno \(e)") }
        for e in [EACCES, EPERM, EINVAL, ECONNABORTED, EADDRINUSE] {
            #expect(!WireError.posix(call: "connect", errno: e).isRecoverableConnectError, "errno \(e)")
        }
        #expect(WireError.timedOut(.connect, seconds: 1).isRecoverableConnectError)
        #expect(WireError.serviceResolution(service: "s", reason: "r").isRecoverableConnectError)
        #expect(WireError.pathUnsatisfied(reason: "r").isRecoverableConnectError)
        for error in [WireError.timedOut(.tlsHandshake, seconds: 1), .tls(reason: "r"), .resolution(host: "h", reason: "r"),
                      .cancelled, .notConnected, .invalidArgument("a"), .datagramTruncated(length: 1)] {
            #expect(!error.isRecoverableConnectError, "\(error)")
        }
    }
}
