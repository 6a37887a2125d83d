import Dispatch
import Foundation
import Testing
@testable import WireTransport

/// TLS versions, ALPN and negotiated metadata, against `openssl s_server` / `s_client` where
/// OpenSSL is the natural peer (loopback; certificates from `TestPKI`).
@Suite("TLS options")
struct TLSOptionsTests {
    @Test func maximumVersionTwelveNegotiatesTLS12WithOpenSSL() throws {
        let pki = try TestPKI.shared.get()
        let server = try OpenSSLServer(pki, arguments: [])
        defer { server.stop() }
        let (client, states) = makePatientClient(.tls(TLSOptions(trustedCAFile: pki.caCert, maximumVersion: .v1_2)), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready, timeout: 10), "\(states.values)")
        let metadata = client.tlsMetadata
        #expect(metadata?.version == "TLSv1.2", "\(String(describing: metadata))")
        #expect(metadata?.cipherSuite.isEmpty == false)
        #expect(metadata?.applicationProtocol == nil, "nothing offered, nothing agreed")
    }

    @Test func defaultVersionsNegotiateTLS13WithOpenSSL() throws {
        let pki = try TestPKI.shared.get()
        let server = try OpenSSLServer(pki, arguments: [])
        defer { server.stop() }
        let (client, states) = makePatientClient(.tls(TLSOptions(trustedCAFile: pki.caCert)), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready, timeout: 10), "\(states.values)")
        #expect(client.tlsMetadata?.version == "TLSv1.3", "\(String(describing: client.tlsMetadata))")
        #expect(client.tlsMetadata?.cipherSuite.hasPrefix("TLS_") == true, "\(String(describing: client.tlsMetadata))")
    }

    @Test func minimumVersionThirteenFailsAgainstATLS12OnlyServer() throws {
        let pki = try TestPKI.shared.get()
        let server = try OpenSSLServer(pki, arguments: ["-tls1_2"])
        defer { server.stop() }
        let (client, states) = makePatientClient(.tls(TLSOptions(trustedCAFile: pki.caCert, minimumVersion: .v1_3)), port: server.port)
        defer { client.cancel() }
        guard case .tls(let reason)? = states.waitForFailure(timeout: 10) else { Issue.record("expected a TLS failure: \(states.values)"); return }
        #expect(reason.contains("version") || reason.contains("alert"), "\(reason)")
    }

    @Test func alpnChosenByAnOpenSSLServerIsReadable() throws {
        let pki = try TestPKI.shared.get()
        let server = try OpenSSLServer(pki, arguments: ["-alpn", "http/1.1"])
        defer { server.stop() }
        let options = TLSOptions(trustedCAFile: pki.caCert, applicationProtocols: ["h2", "http/1.1"])
        let (client, states) = makePatientClient(.tls(options), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready, timeout: 10), "\(states.values)")
        #expect(client.tlsMetadata?.applicationProtocol == "http/1.1", "\(String(describing: client.tlsMetadata))")
    }

    /// The listener picks the first of its own protocols that the client offers.
    @Test func listenerPicksItsPreferredALPNForAnOpenSSLClient() throws {
        let pki = try TestPKI.shared.get()
        var options = pki.serverOptions
        options.applicationProtocols = ["x-wire", "h2"]
        let server = try TestServer(.tls(options))
        defer { server.stop() }
        let output = try openSSLClient(port: server.port, ["-CAfile", pki.caCert, "-alpn", "h2,x-wire"])
        #expect(output.contains("ALPN protocol: x-wire"), "\(output)")
        #expect(server.accepted.wait { !$0.isEmpty })
        let accepted = server.accepted.values[0]
        #expect(Recorder<Int>.poll { accepted.tlsMetadata != nil }, "the accepted side records what it agreed")
        #expect(accepted.tlsMetadata?.applicationProtocol == "x-wire")
    }

    @Test func noCommonALPNFailsTheHandshakeOnBothSides() throws {
        let pki = try TestPKI.shared.get()
        var serverOptions = pki.serverOptions
        serverOptions.applicationProtocols = ["x-wire"]
        let server = try TestServer(.tls(serverOptions))
        defer { server.stop() }
        let (client, states) = makeClient(.tls(TLSOptions(trustedCAFile: pki.caCert, applicationProtocols: ["h2"])), port: server.port)
        defer { client.cancel() }
        guard case .tls(let reason)? = states.waitForFailure() else { Issue.record("expected a TLS failure: \(states.values)"); return }
        #expect(reason.contains("no application protocol"), "\(reason)")
    }

    @Test func invalidVersionRangeAndALPNNamesAreRejectedUpFront() throws {
        let pki = try TestPKI.shared.get()
        var reversed = pki.serverOptions
        reversed.minimumVersion = .v1_3
        reversed.maximumVersion = .v1_2
        #expect(throws: WireError.self) { try Listener(using: .tls(reversed)) }
        var empty = pki.serverOptions
        empty.applicationProtocols = [""]
        #expect(throws: WireError.invalidArgument("ALPN protocol \"\" must be 1 to 255 bytes")) { try Listener(using: .tls(empty)) }
    }

    @Test func aNamedTLS13SuiteIsTheOneNegotiatedWithOpenSSL() throws {
        let pki = try TestPKI.shared.get()
        let server = try OpenSSLServer(pki, arguments: [])
        defer { server.stop() }
        let options = TLSOptions(trustedCAFile: pki.caCert, cipherSuites: ["TLS_CHACHA20_POLY1305_SHA256"])
        let (client, states) = makePatientClient(.tls(options), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready, timeout: 10), "\(states.values)")
        #expect(client.tlsMetadata?.cipherSuite == "TLS_CHACHA20_POLY1305_SHA256", "\(String(describing: client.tlsMetadata))")
    }

    @Test func aNamedTLS12SuiteIsTheOneNegotiatedWithOpenSSL() throws {
        let pki = try TestPKI.shared.get()
        let server = try OpenSSLServer(pki, arguments: [])
        defer { server.stop() }
        let options = TLSOptions(trustedCAFile: pki.caCert, maximumVersion: .v1_2, cipherSuites: ["ECDHE-ECDSA-AES128-GCM-SHA256"])
        let (client, states) = makePatientClient(.tls(options), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready, timeout: 10), "\(states.values)")
        #expect(client.tlsMetadata?.version == "TLSv1.2")
        #expect(client.tlsMetadata?.cipherSuite == "ECDHE-ECDSA-AES128-GCM-SHA256", "\(String(describing: client.tlsMetadata))")
    }

    @Test func unknownSuiteNamesFailSetupNamingTheSuite() throws {
        let pki = try TestPKI.shared.get()
        var tls13 = pki.serverOptions
        tls13.cipherSuites = ["TLS_AES_128_GCM_SHA256", "TLS_NO_SUCH_SUITE"]
        #expect(throws: WireError.invalidArgument("cipherSuites: TLS_NO_SUCH_SUITE is not a TLS 1.3 suite OpenSSL knows")) {
            try Listener(using: .tls(tls13))
        }
        let (client, states) = makeClient(.tls(TLSOptions(cipherSuites: ["ECDHE-RSA-AES128-GCM-SHA256", "NO-SUCH-SUITE"])), port: try unusedPort())
        defer { client.cancel() }
        #expect(states.waitForFailure() == .invalidArgument("cipherSuites: NO-SUCH-SUITE is not a TLS 1.2 suite OpenSSL knows"))
    }

    @Test func anIdentityFromMemoryServesItsWholeChain() throws {
        let pki = try TestPKI.shared.get()
        let leaf = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pki.serverCert)))
        let ca = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pki.caCert)))
        let key = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pki.serverKey)))
        let server = try TestServer(.tls(TLSOptions(certificateChainPEM: leaf + ca, privateKeyPEM: key)))
        defer { server.stop() }
        let (client, states) = makeClient(.tls(TLSOptions(trustedCAFile: pki.caCert)), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready), "\(states.values)")
        // openssl s_client lists each certificate the server sent: the leaf (0) and the CA (1).
        let shown = try openSSLClient(port: server.port, ["-showcerts", "-CAfile", pki.caCert])
        #expect(shown.contains(" 0 s:") && shown.contains(" 1 s:"), "\(shown)")
    }

    @Test func aMismatchedOrIncompleteIdentityFromMemoryIsRefusedAtSetup() throws {
        let pki = try TestPKI.shared.get()
        let leaf = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pki.serverCert)))
        let otherKey = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pki.dir + "/other-ca.key")))
        let key = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pki.serverKey)))
        do {
            _ = try Listener(using: .tls(TLSOptions(certificateChainPEM: leaf, privateKeyPEM: otherKey)))
            Issue.record("a key that does not match the certificate was accepted")
        } catch .tls(let reason) {
            // OpenSSL compares the key with the certificate as it loads it.
            #expect(reason.hasPrefix("cannot load privateKeyPEM") && reason.contains("key values mismatch"), "\(reason)")
        } catch { Issue.record("\(error)") }
        #expect(throws: WireError.invalidArgument("TLS identity: certificateChainPEM and privateKeyPEM go together")) {
            try Listener(using: .tls(TLSOptions(certificateChainPEM: leaf)))
        }
        #expect(throws: WireError.invalidArgument("TLS identity: give certificateFile/privateKeyFile or certificateChainPEM/privateKeyPEM, not both")) {
            try Listener(using: .tls(TLSOptions(certificateFile: pki.serverCert, privateKeyFile: pki.serverKey, certificateChainPEM: leaf, privateKeyPEM: key)))
        }
        // One of each kind is mixing the two too, and is named as such before the pairing is checked.
        #expect(throws: WireError.invalidArgument("TLS identity: give certificateFile/privateKeyFile or certificateChainPEM/privateKeyPEM, not both")) {
            try Listener(using: .tls(TLSOptions(certificateFile: pki.serverCert, privateKeyPEM: key)))
        }
        do {
            _ = try Listener(using: .tls(TLSOptions(certificateChainPEM: Array("not PEM".utf8), privateKeyPEM: key)))
            Issue.record("garbage accepted as a certificate chain")
        } catch .tls(let reason) {
            #expect(reason.hasPrefix("cannot load certificateChainPEM"), "\(reason)")
        } catch { Issue.record("\(error)") }
    }
}
