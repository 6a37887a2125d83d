import Dispatch
import Foundation
import Glibc
import ProofSupport
import Testing
@testable import WireTransport

/// The transport against peers nobody here wrote: `socat` for plain TCP and UDP behaviour, and
/// `openssl s_server` for client certificates, pinning, names and certificates outside their
/// validity (made with `faketime`). Every peer runs on 127.0.0.1 under `timeout`; `make interop` reports these with
/// the TLS option suites as one table.
@Suite("Interop")
struct InteropTests {
    /// `socat` listening on 127.0.0.1:`port` (`listen` is its address type) with `other` as its
    /// other side, ended by `timeout` after 20 s.
    private final class Socat: @unchecked Sendable {
        let port: UInt16
        private let pid: pid_t

        init(listen: String, datagram: Bool = false, _ other: [String]) throws {
            port = try unusedPort(datagram: datagram)
            let log = NSTemporaryDirectory() + "socat-\(port)"
            // Datagram children end after 2 idle seconds; a stream socat only when its peers end.
            pid = try ChildProcess.launch("/usr/bin/timeout", ["20", "/usr/bin/socat"] + (datagram ? ["-T", "2"] : []) +
                                                              ["\(listen):\(port),bind=127.0.0.1,reuseaddr" + (datagram ? ",fork" : "")] + other,
                                          stdout: log + ".out", stderr: log + ".err")
        }

        func stop() { _ = ChildProcess.stop(pid) }
    }

    /// Receives until the end of the stream, for at most `seconds` (well under the peers' own
    /// timeouts, so only the peer's half-close can end it in time); the bytes, and whether the end
    /// was reached without an error.
    private func receiveToEnd(_ connection: Connection, within seconds: Double = 4) -> (Data, Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var bytes = Data()
        while case let remaining = deadline.timeIntervalSinceNow, remaining > 0 {
            guard let (data, complete, error) = receiveBlocking(connection, min: 1, max: 65536, timeout: remaining) else { break }
            if let data { bytes += data }
            if error != nil { return (bytes, false) }
            if complete { return (bytes, true) }
        }
        return (bytes, false)
    }

    @Test func aFinalMessageReachesSocatWhichEchoesItAndEndsItsSide() throws {
        let socat = try Socat(listen: "TCP4-LISTEN", ["EXEC:cat"])
        defer { socat.stop() }
        let (client, states) = makePatientClient(.tcp, port: socat.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready, timeout: 10), "\(states.values)")
        let message = Data(pattern(3000, seed: 7))
        client.send(content: message, contentContext: .finalMessage)
        // cat sees the end of its input only through our half-close, then socat ends its side.
        let (echo, ended) = receiveToEnd(client)
        #expect(echo == message && ended, "\(echo.count) bytes, end of stream \(ended)")
    }

    @Test func socatsHalfCloseReachesOurListenerAsTheEndOfTheStream() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let payload = NSTemporaryDirectory() + "socat-payload-\(server.port)"
        let message = Data(pattern(5000, seed: 3))
        try message.write(to: URL(fileURLWithPath: payload))
        defer { try? FileManager.default.removeItem(atPath: payload) }
        let sent = try ChildProcess.run("/usr/bin/timeout", ["10", "/usr/bin/socat", "-u", "FILE:\(payload)", "TCP4:127.0.0.1:\(server.port)"])
        #expect(sent.status == 0, "\(sent.stderrText)")
        #expect(server.accepted.wait { !$0.isEmpty })
        let (received, ended) = receiveToEnd(server.accepted.values[0])
        #expect(received == message && ended, "\(received.count) bytes, end of stream \(ended)")
    }

    @Test func eachOfOurDatagramsComesBackWholeFromASocatEcho() throws {
        // One child per datagram (fork), each writing cat's output back to the datagram's sender.
        let socat = try Socat(listen: "UDP4-RECVFROM", datagram: true, ["EXEC:cat"])
        defer { socat.stop() }
        Thread.sleep(forTimeInterval: 0.3)  // a datagram sent before socat binds is lost, not refused
        let (client, states) = makeClient(.udp, port: socat.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready), "\(states.values)")
        for size in [1, 512, 1400, 8000] {
            let datagram = pattern(size, seed: UInt8(size % 251))
            client.send(bytes: datagram)
            let echo = receiveBlocking(client, min: 1, max: 65536)
            #expect(echo?.0 == Data(datagram), "\(size) bytes sent, \(String(describing: echo?.0?.count)) back")
        }
    }

    @Test func ourClientCertificateSatisfiesAnOpenSSLServerThatRequiresOne() throws {
        let pki = try TestPKI.shared.get()
        // -rev: s_server answers each line reversed, so data crossed both ways under client auth.
        let server = try OpenSSLServer(pki, arguments: ["-Verify", "1", "-verify_return_error", "-CAfile", pki.caCert, "-rev"])
        defer { server.stop() }
        // The test PKI's server certificate doubles as a client certificate signed by the CA.
        let identity = TLSOptions(trustedCAFile: pki.caCert, certificateFile: pki.serverCert, privateKeyFile: pki.serverKey)
        let (client, states) = makePatientClient(.tls(identity), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready, timeout: 10), "\(states.values)")
        client.send(bytes: Array("with a certificate\n".utf8))
        var answer = Data()
        for _ in 0 ..< 10 where !answer.contains(UInt8(ascii: "\n")) {
            guard let (data, _, error) = receiveBlocking(client, min: 1, max: 100, timeout: 10), error == nil, let data else { break }
            answer += data
        }
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("etacifitrec a htiw"), "\(String(decoding: answer, as: UTF8.self))")
    }

    @Test func withoutAClientCertificateAnOpenSSLServerThatRequiresOneRefusesUs() throws {
        let pki = try TestPKI.shared.get()
        let server = try OpenSSLServer(pki, arguments: ["-Verify", "1", "-verify_return_error", "-CAfile", pki.caCert])
        defer { server.stop() }
        let (client, states) = makePatientClient(.tls(TLSOptions(trustedCAFile: pki.caCert)), port: server.port)
        defer { client.cancel() }
        // TLS 1.3: the server judges the client's (empty) certificate after the client's handshake
        // ends, so the refusal arrives as an alert on the first read.
        var failure = states.waitForFailure(timeout: 2)
        if failure == nil, let (_, _, error) = receiveBlocking(client, min: 1, max: 100, timeout: 10) { failure = error }
        guard case .tls(let reason)? = failure else { Issue.record("expected a TLS failure: \(states.values), \(String(describing: failure))"); return }
        #expect(reason.contains("certificate required"), "\(reason)")
    }

    @Test(arguments: [true, false])
    func aPinOfAnOpenSSLServersKeyIsAcceptedAndAnyOtherPinRejected(matching: Bool) throws {
        let pki = try TestPKI.shared.get()
        let server = try OpenSSLServer(pki, arguments: [])
        defer { server.stop() }
        var options = TLSOptions(trustedCAFile: pki.caCert)
        options.verifyBlock = .pinning(spkiSHA256: [try spkiPin(pki.otherCACert)] + (matching ? [try spkiPin(pki.serverCert)] : []))
        let (client, states) = makePatientClient(.tls(options), port: server.port)
        defer { client.cancel() }
        if matching {
            #expect(states.waitFor(.ready, timeout: 10), "\(states.values)")
        } else {
            #expect(states.waitForFailure(timeout: 10) == .tls(reason: "the verify block rejected the peer's certificate (OpenSSL's verdict: verified)"),
                    "\(states.values)")
        }
    }

    @Test func aNameAnOpenSSLServersCertificateDoesNotCarryFailsVerification() throws {
        let pki = try TestPKI.shared.get()
        let server = try OpenSSLServer(pki, arguments: [])
        defer { server.stop() }
        let (client, states) = makePatientClient(.tls(TLSOptions(trustedCAFile: pki.caCert, serverName: "not-this-server.example")),
                                                 port: server.port)
        defer { client.cancel() }
        guard case .tls(let reason)? = states.waitForFailure(timeout: 10) else { Issue.record("expected a TLS failure: \(states.values)"); return }
        #expect(reason.contains("hostname mismatch"), "\(reason)")
    }

    /// A server certificate signed by the trusted CA but dated outside its validity, made with
    /// `faketime` shifting the signing clock `shift` (e.g. "-10d": valid ten to eight days ago).
    private func certificateOutsideItsValidity(_ pki: TestPKI, shift: String) throws -> String {
        let name = "shifted\(shift).pem"
        let result = try ChildProcess.run("/usr/bin/faketime", ["-f", shift, "/usr/bin/openssl", "x509", "-req", "-in", pki.dir + "/server.csr",
                                                                "-CA", pki.caCert, "-CAkey", pki.dir + "/ca.key", "-CAcreateserial",
                                                                "-out", pki.dir + "/" + name, "-days", "2", "-extfile", pki.dir + "/san.ext"],
                                          in: pki.dir)
        guard result.status == 0 else { throw WireError.tls(reason: "faketime openssl x509 failed: \(result.stderrText)") }
        return pki.dir + "/" + name
    }

    @Test(arguments: [("-10d", "certificate has expired"), ("+10d", "certificate is not yet valid")])
    func aServerCertificateOutsideItsValidityFailsVerificationNamingWhy(shift: String, verdict: String) throws {
        let pki = try TestPKI.shared.get()
        let certificate = try certificateOutsideItsValidity(pki, shift: shift)
        let server = try OpenSSLServer(pki, arguments: ["-cert", certificate])
        defer { server.stop() }
        let (client, states) = makePatientClient(.tls(TLSOptions(trustedCAFile: pki.caCert)), port: server.port)
        defer { client.cancel() }
        guard case .tls(let reason)? = states.waitForFailure(timeout: 10) else { Issue.record("expected a TLS failure: \(states.values)"); return }
        #expect(reason.contains(verdict), "\(reason)")
    }
}
