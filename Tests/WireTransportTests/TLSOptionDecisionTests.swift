import Testing
@testable import WireTransport

/// The decisions TLS options make before OpenSSL is involved: their defaults, when the peer's
/// certificate is checked at all, and when an identity counts as configured.
@Suite struct TLSOptionDecisionTests {
    @Test func defaultsVerifyThePeerWithinTenSecondsOverTLS12To13WithNothingElseSet() {
        let options = TLSOptions()
        #expect(options.verifyPeer && options.handshakeTimeout == 10)
        #expect(options.minimumVersion == .v1_2 && options.maximumVersion == .v1_3)
        #expect(options.applicationProtocols.isEmpty && options.cipherSuites.isEmpty)
        #expect(options.trustedCAFile == nil && options.serverName == nil && options.verifyBlock == nil)
        #expect(options.clientCertificates == .none && !options.hasIdentity)
        #expect(TLSVersion.v1_2 < .v1_3 && !(TLSVersion.v1_3 < .v1_2) && !(TLSVersion.v1_2 < .v1_2))
    }

    @Test func theClientChecksWhenVerifyingTheServerWhenAskingAndEitherSideWithAVerifyBlock() {
        let block = TLSVerifyBlock { _ in true }
        let cases: [(TLSOptions, client: Bool, server: Bool)] = [
            (TLSOptions(), true, false),
            (TLSOptions(verifyPeer: false), false, false),
            (TLSOptions(verifyPeer: false, verifyBlock: block), true, true),
            (TLSOptions(clientCertificates: .request), true, true),
            (TLSOptions(verifyPeer: false, clientCertificates: .require), false, true),
        ]
        for (index, (options, client, server)) in cases.enumerated() {
            #expect(options.checksPeer(server: false) == client, "case \(index), client side")
            #expect(options.checksPeer(server: true) == server, "case \(index), listener side")
        }
    }

    @Test func anIdentityNeedsBothHalvesFromTheSameSource() {
        let pem: [UInt8] = Array("-----".utf8)
        #expect(TLSOptions(certificateFile: "c.pem", privateKeyFile: "k.pem").hasIdentity)
        #expect(TLSOptions(certificateChainPEM: pem, privateKeyPEM: pem).hasIdentity)
        #expect(!TLSOptions(certificateFile: "c.pem").hasIdentity)
        #expect(!TLSOptions(privateKeyFile: "k.pem").hasIdentity)
        #expect(!TLSOptions(certificateChainPEM: pem).hasIdentity)
        #expect(!TLSOptions(privateKeyPEM: pem).hasIdentity)
        #expect(!TLSOptions(certificateFile: "c.pem", privateKeyPEM: pem).hasIdentity, "a file and a PEM do not pair")
    }
}
