import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// Parameters' local attachment (requiredLocalEndpoint, requiredInterfaceName,
/// allowLocalEndpointReuse), seen from the other end of a loopback connection or from the kernel.
/// Every address is on loopback (all of 127.0.0.0/8 is local on Linux).
@Suite("Local endpoint, interface and address reuse")
struct LocalAttachmentTests {
    @Test func aRequiredLocalEndpointIsTheSourceAddressTheListenerSees() throws {
        var parameters = Parameters.tcp
        parameters.requiredLocalEndpoint = LocalEndpoint(host: "127.0.0.2")
        let (server, client, accepted) = try connectedPair(.tcp, client: parameters)
        defer { server.stop(); client.cancel() }
        #expect(accepted.remoteAddress?.host == "127.0.0.2")
    }

    @Test func aRequiredLocalPortIsTheSourcePortOverUDP() throws {
        let port = try unusedPort(datagram: true)
        var parameters = Parameters.udp
        parameters.requiredLocalEndpoint = LocalEndpoint(host: "127.0.0.3", port: port)
        let server = try TestServer(.udp)
        defer { server.stop() }
        let (client, states) = makeClient(parameters, port: server.port)
        defer { client.cancel() }
        #expect(states.waitFor(.ready))
        client.send(bytes: [1, 2, 3])
        #expect(server.accepted.wait(until: { !$0.isEmpty }))
        let source = server.accepted.values.first?.remoteAddress
        #expect(source?.host == "127.0.0.3" && source?.port == port, "\(String(describing: source))")
    }

    @Test func aLocalEndpointOfTheOtherFamilySkipsTheAddressAndSaysWhy() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        var parameters = Parameters.tcp
        parameters.requiredLocalEndpoint = LocalEndpoint(host: "::1")
        let (client, states) = makeClient(parameters, port: server.port)
        defer { client.cancel() }
        guard case .invalidArgument(let reason)? = states.waitForFailure() else {
            Issue.record("states: \(states.values)")
            return
        }
        #expect(reason.contains("requiredLocalEndpoint [::1]:0 has no IPv4 address"), "\(reason)")
    }

    @Test func aLocalEndpointThatIsNotALiteralAddressIsRefusedBeforeAnyConnect() throws {
        var parameters = Parameters.tcp
        parameters.requiredLocalEndpoint = LocalEndpoint(host: "localhost")
        let (client, states) = makeClient(parameters, port: try unusedPort())
        defer { client.cancel() }
        #expect(states.waitForFailure() == .invalidArgument("requiredLocalEndpoint localhost:0: not a numeric IPv4 or IPv6 address"))
    }

    @Test func theRequiredInterfaceIsSetOnTheSocketAndAnUnknownOneFailsNamingIt() throws {
        var loopback = Parameters.tcp
        loopback.requiredInterfaceName = "lo"
        let (server, client, _) = try connectedPair(.tcp, client: loopback)
        defer { server.stop(); client.cancel() }
        let bound = client.queue.sync {
            try? client.channel?.socket.withDescriptor { fd throws(SystemError) -> String in
                var name = [CChar](repeating: 0, count: Int(IFNAMSIZ))
                var length = socklen_t(name.count)
                guard getsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, &name, &length) == 0 else {
                    throw SystemError(call: "getsockopt", errno: errno)
                }
                return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        #expect(bound == "lo")

        var missing = Parameters.tcp
        missing.requiredInterfaceName = "wp-none0"
        let (failing, states) = makeClient(missing, port: server.port)
        defer { failing.cancel() }
        #expect(states.waitForFailure() == .posix(call: "setsockopt(SO_BINDTODEVICE \"wp-none0\")", errno: ENODEV))
    }

    @Test func twoListenersShareAPortOnlyWhenBothAllowReuse() throws {
        var reuse = Parameters.tcp
        reuse.allowLocalEndpointReuse = true
        let first = try TestServer(reuse)
        defer { first.stop() }
        let second = try TestServer(reuse, port: first.port)
        defer { second.stop() }
        #expect(second.port == first.port)

        let third = try Listener(using: .tcp, port: first.port)
        let states = Recorder<ListenerState>()
        third.stateUpdateHandler = { states.append($0) }
        third.start(queue: DispatchQueue(label: "test.third"))
        defer { third.cancel() }
        #expect(states.wait(until: { $0.contains { if case .failed(.posix("bind", EADDRINUSE)) = $0 { true } else { false } } }),
                "\(states.values)")
    }
}
