import Dispatch
import Foundation
import ProofSupport
import Testing
@testable import WireTransport

/// A CA, a server certificate it signed (for 127.0.0.1 and localhost), and a second, unrelated CA,
/// made with the openssl command in a fresh temporary folder.
final class TestPKI: Sendable {
    let dir: String
    var caCert: String { dir + "/ca.pem" }
    var otherCACert: String { dir + "/other-ca.pem" }
    var serverCert: String { dir + "/server.pem" }
    var serverKey: String { dir + "/server.key" }

    static let shared: Result<TestPKI, Error> = Result { try TestPKI() }

    init() throws {
        dir = NSTemporaryDirectory() + "wire-pki-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + ec + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Wire Test CA"], in: dir)
        try Self.openssl(["req", "-x509"] + ec + ["-keyout", "other-ca.key", "-out", "other-ca.pem", "-days", "2", "-subj", "/CN=Other CA"], in: dir)
        try Self.openssl(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=wire-test-server"], in: dir)
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: dir + "/san.ext", atomically: true, encoding: .utf8)
        try Self.openssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                          "-out", "server.pem", "-days", "2", "-extfile", "san.ext"], in: dir)
    }

    private static func openssl(_ args: [String], in dir: String) throws {
        let result = try ChildProcess.run("/usr/bin/openssl", args, in: dir)
        guard result.status == 0 else {
            throw WireError.tls(reason: "openssl \(args.joined(separator: " ")) failed: \(result.stderrText)")
        }
    }

    var serverOptions: TLSOptions { TLSOptions(certificateFile: serverCert, privateKeyFile: serverKey) }
}

@Suite("TLS")
struct TLSTests {
    @Test func handshakeVerifiesTheServerAndCarriesData() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tls(pki.serverOptions))
        defer { server.stop() }
        let (client, states) = makeClient(.tls(TLSOptions(trustedCAFile: pki.caCert)), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready), "\(states.values)")
        #expect(server.accepted.wait { !$0.isEmpty })
        let peer = server.accepted.values[0]
        let payload = pattern(100_000)
        client.send(bytes: payload)
        let r = receiveBlocking(peer, min: payload.count, max: payload.count)
        #expect(r?.0.map { [UInt8]($0) } == payload)
        peer.send(bytes: Array("pong".utf8))
        #expect(receiveBlocking(client, min: 4, max: 4)?.0 == Data("pong".utf8))
    }

    @Test func serverSignedByAnUntrustedCAFailsWithAVerifyError() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tls(pki.serverOptions))
        defer { server.stop() }
        let (client, states) = makeClient(.tls(TLSOptions(trustedCAFile: pki.otherCACert)), port: server.port)
        defer { client.cancel() }
        let error = states.waitForFailure()
        guard case .tls(let reason)? = error else { Issue.record("expected a TLS failure, got \(states.values)"); return }
        #expect(reason.contains("certificate verify failed"), "\(reason)")
        #expect(!states.values.contains(.ready))
    }

    @Test func nameMismatchFailsWithAVerifyError() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tls(pki.serverOptions))
        defer { server.stop() }
        let options = TLSOptions(trustedCAFile: pki.caCert, serverName: "not-this-server.example")
        let (client, states) = makeClient(.tls(options), port: server.port)
        defer { client.cancel() }
        guard case .tls(let reason)? = states.waitForFailure() else { Issue.record("expected a TLS failure, got \(states.values)"); return }
        #expect(reason.contains("hostname mismatch"), "\(reason)")
    }

    @Test func verificationIsOnByDefault() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tls(pki.serverOptions))
        defer { server.stop() }
        // No CA given: the system store does not know the test CA, so the handshake must fail.
        let (client, states) = makeClient(.tls(TLSOptions()), port: server.port)
        defer { client.cancel() }
        guard case .tls(let reason)? = states.waitForFailure() else { Issue.record("expected a TLS failure, got \(states.values)"); return }
        #expect(reason.contains("certificate verify failed"), "\(reason)")
    }

    /// A session that cannot be set up (here: a name to verify that is neither a host name nor an
    /// IP address) fails with the session's own TLS error, not one wrapped in a system error.
    @Test func sessionSetupFailureIsReportedAsTheTLSErrorItself() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tls(pki.serverOptions))
        defer { server.stop() }
        let (client, states) = makeClient(.tls(TLSOptions(trustedCAFile: pki.caCert, serverName: "999.1")), port: server.port)
        defer { client.cancel() }
        guard case .tls(let reason)? = states.waitForFailure() else { Issue.record("expected a TLS failure, got \(states.values)"); return }
        #expect(reason.hasPrefix("cannot set the name to verify (999.1)"), "\(reason)")
    }

    @Test func listenerWithAMissingKeyFailsAtInit() throws {
        let pki = try TestPKI.shared.get()
        #expect(throws: WireError.self) { try Listener(using: .tls(TLSOptions(certificateFile: pki.serverCert, privateKeyFile: pki.dir + "/missing.key"))) }
    }

    @Test func garbageInsteadOfAHandshakeFailsThatConnectionOnly() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tls(pki.serverOptions))
        defer { server.stop() }
        let (plain, plainStates) = makeClient(.tcp, port: server.port)
        #expect(plainStates.waitFor(.ready))
        plain.send(bytes: Array("GET / HTTP/1.0\r\n\r\n".utf8))
        // The server may answer with a TLS alert record before it closes, and the alert and the end
        // of the stream can arrive in one read or in two: read (a bounded number of times) until the
        // stream ends or fails.
        var dropped = false
        for _ in 0 ..< 4 {
            guard let (_, complete, error) = receiveBlocking(plain, min: 1, max: 100) else { break }
            if complete || error != nil { dropped = true; break }
        }
        #expect(dropped, "the server drops a peer that sends garbage")
        plain.cancel()
        let (client, states) = makeClient(.tls(TLSOptions(trustedCAFile: pki.caCert)), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready), "the listener still serves others")
    }
}
