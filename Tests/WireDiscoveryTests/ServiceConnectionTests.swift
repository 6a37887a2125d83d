import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireDiscovery
import WireTransport

/// `Connection(to: browseResult, using:)`: the connection resolves the result through
/// avahi-daemon while preparing (Avahi's client library answers the SRV target's address), then
/// connects as to a host. Run by `make discovery-test` inside its namespace.
@Suite("Connecting to a browse result", .serialized)
struct ServiceConnectionTests {
    /// A ready listener on every address (the default, 127.0.0.1, is not where Avahi's answer
    /// points) whose accepted connections are started and kept.
    final class Server: @unchecked Sendable {
        let listener: Listener
        let accepted = Recorder<Connection>()

        init() throws {
            listener = try Listener(using: .tcp, host: "0.0.0.0")
            let accepted = self.accepted, queue = DispatchQueue(label: "test.server")
            listener.newConnectionHandler = { connection in
                accepted.append(connection)
                connection.start(queue: queue)
            }
            let states = Recorder<ListenerState>()
            listener.stateUpdateHandler = { states.append($0) }
            listener.start(queue: queue)
            guard states.wait(until: { $0.contains(.ready) }) else { throw WireError.notConnected }
        }

        func stop() {
            listener.cancel()
            for connection in accepted.values { connection.cancel() }
        }
    }

    /// Advertises `server` as `name` and browses until the result appears; the advertisement is
    /// the caller's to cancel.
    func advertiseAndBrowse(_ server: Server, _ name: String) throws -> (Advertisement, Browser, BrowseResult) {
        let advertisement = try server.listener.advertisement(ServiceDescription(name: name, type: serviceType))
        advertisement.start(queue: DispatchQueue(label: "test.advertisement"))
        let browser = Browser(type: serviceType)
        browser.start(queue: DispatchQueue(label: "test.browser"))
        let seen = Recorder<Bool>()
        _ = seen.wait { _ in browser.currentResults.contains { $0.service.name == name } }
        let result = try #require(browser.currentResults.first { $0.service.name == name }, "\(name) never browsed")
        return (advertisement, browser, result)
    }

    func receive(_ connection: Connection, _ count: Int) -> [UInt8]? {
        let got = Recorder<[UInt8]>()
        connection.receive(minimumIncompleteLength: count, maximumLength: count) { data, _, _ in got.append(data.map { [UInt8]($0) } ?? []) }
        return got.wait(until: { !$0.isEmpty }) ? got.values.first : nil
    }

    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func aConnectionToABrowseResultResolvesItAndExchangesDataBothWays() throws {
        let server = try Server()
        defer { server.stop() }
        let name = uniqueName("connect")
        let (advertisement, browser, result) = try advertiseAndBrowse(server, name)
        defer { advertisement.cancel(); browser.cancel() }

        let connection = Connection(to: result, using: .tcp)
        let states = Recorder<ConnectionState>()
        connection.stateUpdateHandler = { states.append($0) }
        connection.start(queue: DispatchQueue(label: "test.client"))
        defer { connection.cancel() }
        #expect(states.wait(until: { $0.contains(.ready) }), "states: \(states.values)")
        #expect(states.values.prefix(2) == [.preparing, .ready])
        // Values are read into locals first: Swift Testing's reflection of a Connection in a
        // failed expectation crashed the test process (signal 11 in Mirror).
        let host = connection.host, remoteAddress = connection.remoteAddress
        #expect(host == result.serviceName)
        let remote = try #require(remoteAddress)
        #expect(remote.port == server.listener.port)
        #expect(remote.host != "127.0.0.1", "the address came from Avahi (the namespace's veth), not a loopback guess")

        connection.send(bytes: Array("ping".utf8))
        #expect(server.accepted.wait(until: { !$0.isEmpty }))
        let peer = try #require(server.accepted.values.first)
        #expect(receive(peer, 4) == Array("ping".utf8))
        peer.send(bytes: Array("pong".utf8))
        #expect(receive(connection, 4) == Array("pong".utf8))
    }

    /// A browse result kept after its service was withdrawn.
    func goneResult(_ server: Server, _ what: String) throws -> BrowseResult {
        let name = uniqueName(what)
        let (advertisement, browser, result) = try advertiseAndBrowse(server, name)
        defer { browser.cancel() }
        advertisement.cancel()
        let gone = Recorder<Bool>()
        #expect(gone.wait { _ in !browser.currentResults.contains(result) }, "\(name) never went away")
        return result
    }

    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func aResultWhoseServiceHasGoneAwayFailsNamingItWithinBoundedTime() throws {
        let server = try Server()
        defer { server.stop() }
        let result = try goneResult(server, "gone")
        let connection = Connection(to: result, using: .tcp)
        connection.retryPolicy = RetryPolicy(maximumAttempts: 1)
        let states = Recorder<ConnectionState>()
        connection.stateUpdateHandler = { states.append($0) }
        let started = Date()
        connection.start(queue: DispatchQueue(label: "test.client"))
        defer { connection.cancel() }
        let bound = BrowseResult.serviceResolutionTimeout + 2
        #expect(states.wait(timeout: bound, until: { $0.contains { if case .failed = $0 { return true }; return false } }), "states: \(states.values)")
        let elapsed = Date().timeIntervalSince(started)
        let failure = states.values.compactMap { if case .failed(let e) = $0 { return e }; return nil }.first
        guard case .serviceResolution(let service, let reason)? = failure else {
            Issue.record("expected serviceResolution, got \(String(describing: failure))")
            return
        }
        #expect(service == result.serviceName)
        #expect(server.accepted.values.isEmpty)
        print("gone service: failed after \(String(format: "%.2f", elapsed)) s: \(reason)")
    }

    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func cancelWhileResolvingEndsCancelledAndFreesTheResolution() throws {
        let server = try Server()
        defer { server.stop() }
        let result = try goneResult(server, "cancelled")  // its resolution runs until cancelled
        let before = AvahiServiceResolution.live
        let states = Recorder<ConnectionState>()
        weak var released: Connection?
        do {
            let connection = Connection(to: result, using: .tcp)
            released = connection
            connection.stateUpdateHandler = { states.append($0) }
            connection.start(queue: DispatchQueue(label: "test.client"))
            #expect(states.wait(until: { $0.contains(.preparing) }))
            let resolving = Recorder<Bool>()
            #expect(resolving.wait(timeout: 2) { _ in AvahiServiceResolution.live == before + 1 }, "a resolution is in flight")
            connection.cancel()
            #expect(states.wait(until: { $0.last == .cancelled }), "states: \(states.values)")
            // The cancel itself frees the resolution (thread, D-Bus client), not the release later.
            let freed = Recorder<Bool>()
            withExtendedLifetime(connection) {
                #expect(freed.wait(timeout: 2) { _ in AvahiServiceResolution.live == before }, "live resolutions: \(AvahiServiceResolution.live)")
            }
        }
        let freed = Recorder<Bool>()
        #expect(freed.wait(timeout: 2) { _ in released == nil }, "the connection is released")
        usleep(200_000)
        #expect(states.values == [.preparing, .cancelled])
    }
}
