// The path a connection evaluates before its first connect is not a change the route watcher
// reports (its first evaluation comes back as a result, not through onChange), so the connection
// reports it itself: the pathUpdateHandler hears it, satisfied on loopback, before `ready`.

import Dispatch
import Testing
@testable import WireTransport

@Suite struct ConnectionPathReportTests {
    @Test func theFirstPathIsReportedSatisfiedBeforeReady() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let connection = Connection(host: "127.0.0.1", port: server.port, using: .tcp)
        defer { connection.cancel() }
        // Both handlers run on the one start queue, so this log keeps their order.
        let events = Recorder<String>()
        connection.pathUpdateHandler = { events.append("path \($0.status)") }
        connection.stateUpdateHandler = { events.append("state \($0)") }
        connection.start(queue: DispatchQueue(label: "test.path-report"))
        #expect(events.wait { $0.contains("state \(ConnectionState.ready)") }, "\(events.values)")
        let log = events.values
        let firstPath = try #require(log.firstIndex { $0.hasPrefix("path ") }, "no path reported: \(log)")
        #expect(log[firstPath] == "path \(NetworkPath.Status.satisfied)", "\(log)")
        #expect(firstPath < log.firstIndex(of: "state \(ConnectionState.ready)")!, "\(log)")
    }
}
