import Testing
@testable import WireTransport

/// What a connection gets when the caller leaves a parameter out.
@Suite struct ParameterDefaultsTests {
    @Test func tcpOptionsDefaultToA30SecondTimeoutAQuarterSecondStaggerNoDelayAndNoKeepalive() {
        let tcp = TCPOptions()
        #expect(tcp.connectionTimeout == 30 && tcp.connectionAttemptDelay == 0.25)
        #expect(tcp.noDelay && !tcp.enableKeepalive)
        #expect(tcp.keepaliveIdle == 0 && tcp.keepaliveInterval == 0 && tcp.keepaliveCount == 0)
    }

    @Test func theThreePresetsDifferOnlyInTransportAndTLS() {
        for (parameters, datagram) in [(Parameters.tcp, false), (.udp, true), (.tls(TLSOptions()), false)] {
            #expect(parameters.isDatagram == datagram)
            #expect(parameters.tcp == TCPOptions())
            #expect(parameters.requiredLocalEndpoint == nil && parameters.requiredInterfaceName == nil)
            #expect(!parameters.allowLocalEndpointReuse, "reusing a local address is opt-in")
        }
        #expect(Parameters.tcp.tls == nil && Parameters.udp.tls == nil && Parameters.tls(TLSOptions()).tls == TLSOptions())
    }

    @Test func aLocalEndpointBracketsIPv6HostsAndDefaultsToAnyPort() {
        #expect(LocalEndpoint(host: "127.0.0.1").port == 0)
        #expect(LocalEndpoint(host: "127.0.0.1", port: 80).description == "127.0.0.1:80")
        #expect(LocalEndpoint(host: "::1", port: 443).description == "[::1]:443")
    }
}
