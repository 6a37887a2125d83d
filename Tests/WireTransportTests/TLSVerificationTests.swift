import Dispatch
import Foundation
import ProofSupport
import Testing
@testable import WireTransport

/// Verify blocks, SPKI pinning and client certificates, between our own ends and against
/// `openssl s_client` (loopback; certificates from `TestPKI`). Expected pins and DER are computed
/// by the openssl command, not by the code under test.
@Suite("TLS verification")
struct TLSVerificationTests {
    @Test func aPinOfTheServersKeyIsAcceptedAndAnyOtherPinRejected() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tls(pki.serverOptions))
        defer { server.stop() }
        let pin = try spkiPin(pki.serverCert)
        #expect(pin.count == 32)

        var pinned = TLSOptions(trustedCAFile: pki.caCert)
        pinned.verifyBlock = .pinning(spkiSHA256: [try spkiPin(pki.otherCACert), pin])
        let (client, states) = makeClient(.tls(pinned), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready), "\(states.values)")

        var wrong = TLSOptions(trustedCAFile: pki.caCert)
        wrong.verifyBlock = .pinning(spkiSHA256: [try spkiPin(pki.otherCACert)])
        let (rejected, rejectedStates) = makeClient(.tls(wrong), port: server.port)
        defer { rejected.cancel() }
        #expect(rejectedStates.waitForFailure() == .tls(reason: "the verify block rejected the peer's certificate (OpenSSL's verdict: verified)"))
        #expect(!rejectedStates.values.contains(.ready), "rejected before ready")
    }

    @Test func aPinDoesNotRescueAChainOpenSSLRejectsUnlessToldTo() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tls(pki.serverOptions))
        defer { server.stop() }
        let pin = try spkiPin(pki.serverCert)
        var strict = TLSOptions(trustedCAFile: pki.otherCACert)  // the server's CA is not trusted
        strict.verifyBlock = .pinning(spkiSHA256: [pin])
        let (client, states) = makeClient(.tls(strict), port: server.port)
        defer { client.cancel() }
        guard case .tls(let reason)? = states.waitForFailure() else { Issue.record("\(states.values)"); return }
        #expect(reason.hasSuffix("(OpenSSL's verdict: unable to verify the first certificate)"), "\(reason)")

        var pinOnly = strict
        pinOnly.verifyBlock = .pinning(spkiSHA256: [pin], requireValidChain: false)
        let (pinned, pinnedStates) = makeClient(.tls(pinOnly), port: server.port)
        defer { pinned.cancel() }
        #expect(pinnedStates.waitFor(.ready), "\(pinnedStates.values)")
    }

    @Test func theVerifyBlockSeesTheChainAndOpenSSLsVerdict() throws {
        let pki = try TestPKI.shared.get()
        let server = try TestServer(.tls(pki.serverOptions))
        defer { server.stop() }
        let seen = Recorder<TLSPeerTrust>()
        var options = TLSOptions(trustedCAFile: pki.caCert, serverName: "not-the-name.example")
        options.verifyBlock = TLSVerifyBlock { trust in seen.append(trust); return true }
        let (client, states) = makeClient(.tls(options), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready), "\(states.values)")
        let trust = try #require(seen.values.first)
        #expect(trust.certificateChain == [try openssl(["x509", "-in", pki.serverCert, "-outform", "DER"])])
        #expect(trust.verificationError == "hostname mismatch" || trust.verificationError == "Hostname mismatch", "\(String(describing: trust.verificationError))")
        #expect(client.tlsMetadata?.peerCertificateChain == trust.certificateChain)
    }

    @Test func aListenerThatRequiresClientCertificatesRefusesAClientWithoutOne() throws {
        let pki = try TestPKI.shared.get()
        var serverOptions = pki.serverOptions
        serverOptions.trustedCAFile = pki.caCert
        serverOptions.clientCertificates = .require
        let server = try TestServer(.tls(serverOptions))
        defer { server.stop() }

        // The test PKI's server certificate doubles as a client certificate signed by the CA.
        let identity = TLSOptions(trustedCAFile: pki.caCert, certificateFile: pki.serverCert, privateKeyFile: pki.serverKey)
        let (client, states) = makeClient(.tls(identity), port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready), "\(states.values)")
        #expect(server.accepted.wait { !$0.isEmpty })
        let accepted = server.accepted.values[0]
        for _ in 0 ..< 500 where accepted.currentState != .ready { Thread.sleep(forTimeInterval: 0.01) }
        // OpenSSL's client sends its leaf and the CA it found in its own trust store.
        #expect(accepted.tlsMetadata?.peerCertificateChain.first == (try openssl(["x509", "-in", pki.serverCert, "-outform", "DER"])),
                "\(accepted.currentState) \(String(describing: accepted.tlsMetadata?.peerCertificateChain.map(\.count)))")

        // openssl s_client without a certificate: the listener's side of it fails, naming why.
        _ = try openSSLClient(port: server.port, ["-CAfile", pki.caCert])
        #expect(server.accepted.wait { $0.count >= 2 })
        let bare = server.accepted.values[1]
        var bareFailure: WireError?
        for _ in 0 ..< 500 {
            if case .failed(let error) = bare.currentState { bareFailure = error; break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        guard case .tls(let reason)? = bareFailure else { Issue.record("\(bare.currentState)"); return }
        #expect(reason.contains("peer did not return a certificate"), "\(reason)")
        let withCertificate = try openSSLClient(port: server.port, ["-CAfile", pki.caCert, "-cert", pki.serverCert, "-key", pki.serverKey])
        #expect(withCertificate.contains("Verify return code: 0 (ok)"), "\(withCertificate)")
    }

    @Test func aListenersVerifyBlockDecidesOnTheClientsCertificate() throws {
        let pki = try TestPKI.shared.get()
        var serverOptions = pki.serverOptions
        serverOptions.trustedCAFile = pki.caCert
        serverOptions.clientCertificates = .require
        serverOptions.verifyBlock = TLSVerifyBlock { _ in false }
        let server = try TestServer(.tls(serverOptions))
        defer { server.stop() }
        let identity = TLSOptions(trustedCAFile: pki.caCert, certificateFile: pki.serverCert, privateKeyFile: pki.serverKey)
        let (client, states) = makeClient(.tls(identity), port: server.port)
        defer { client.cancel() }
        #expect(server.accepted.wait { !$0.isEmpty })
        let accepted = server.accepted.values[0]
        var acceptedFailure: WireError?
        for _ in 0 ..< 500 {
            if case .failed(let error) = accepted.currentState { acceptedFailure = error; break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(acceptedFailure == .tls(reason: "the verify block rejected the peer's certificate (OpenSSL's verdict: verified)"))
        _ = states
    }
}
