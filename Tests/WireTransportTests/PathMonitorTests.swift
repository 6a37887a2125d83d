import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// PathMonitor and a connection's path in a namespace pair of their own (`NetworkNamespaces`):
/// the body removes and restores the client's only route (or its interface) and watches the
/// handlers and states follow. Every wait is bounded.
@Suite("Path monitor and connection paths", .serialized)
struct PathMonitorTests {
    typealias NS = NetworkNamespaces
    static let routeDelete = ["route", "del", NS.subnet, "dev", NS.clientInterface]
    static let routeAdd = ["route", "add", NS.subnet, "dev", NS.clientInterface]

    func monitor(_ remote: String? = nil) throws -> (PathMonitor, Recorder<NetworkPath>) {
        let monitor = try PathMonitor(remoteHost: remote)
        let paths = Recorder<NetworkPath>()
        monitor.pathUpdateHandler = { paths.append($0) }
        monitor.start(queue: DispatchQueue(label: "test.path"))
        return (monitor, paths)
    }

    @Test func monitorReportsUnsatisfiedWhenTheRouteGoesAndSatisfiedWhenItReturns() throws {
        try NS.run(#function) { pair in
            let ns = pair.client
            let (system, systemPaths) = try monitor()
            let (remote, remotePaths) = try monitor(NS.peerAddress)
            defer { system.cancel(); remote.cancel() }
            #expect(systemPaths.wait { $0.last?.status == .satisfied }, "\(systemPaths.values)")
            #expect(remotePaths.wait { $0.last?.status == .satisfied }, "\(remotePaths.values)")
            let first = try #require(remotePaths.values.last)
            #expect(first.availableInterfaces.contains { $0.name == NS.clientInterface && $0.type == .wiredEthernet })
            #expect(first.availableInterfaces.contains { $0.name == "lo" && $0.type == .loopback })
            #expect(first.supportsIPv4 && !first.supportsIPv6, "only an IPv4 route exists: \(first)")

            try NS.ip(["-n", ns] + Self.routeDelete)
            #expect(systemPaths.wait { $0.last?.status == .unsatisfied }, "\(systemPaths.values)")
            #expect(remotePaths.wait { $0.last?.status == .unsatisfied }, "\(remotePaths.values)")
            let reason = remotePaths.values.last?.unsatisfiedReason ?? ""
            #expect(reason.contains("no route to \(NS.peerAddress)"), "the kernel's answer is named: \(reason)")

            try NS.ip(["-n", ns] + Self.routeAdd)
            #expect(systemPaths.wait { $0.last?.status == .satisfied }, "\(systemPaths.values)")
            #expect(remotePaths.wait { $0.last?.status == .satisfied }, "\(remotePaths.values)")
            #expect(remote.currentPath?.status == .satisfied)
        }
    }

    @Test func anInterfaceGoingDownLeavesTheAvailableInterfacesAndComingUpReturns() throws {
        try NS.run(#function) { pair in
            let ns = pair.client
            let (monitor, paths) = try monitor()
            defer { monitor.cancel() }
            let listed = { (p: NetworkPath?) in p?.availableInterfaces.contains { $0.name == NS.clientInterface } ?? false }
            #expect(paths.wait { listed($0.last) }, "\(paths.values)")
            try NS.ip(["-n", ns, "link", "set", NS.clientInterface, "down"])
            #expect(paths.wait { $0.last.map { !listed($0) && $0.status == .unsatisfied } ?? false }, "\(paths.values)")
            try NS.ip(["-n", ns, "link", "set", NS.clientInterface, "up"])
            // The kernel restores the connected route with the address once the link is up again.
            #expect(paths.wait { $0.last.map { listed($0) && $0.status == .satisfied } ?? false }, "\(paths.values)")
        }
    }

    @Test func aBurstOfRouteChangesIsEvaluatedOnceNotOncePerNotification() throws {
        try NS.run(#function) { pair in
            let (monitor, paths) = try monitor()
            defer { monitor.cancel() }
            #expect(paths.wait { !$0.isEmpty })
            let before = monitor.evaluationCount
            // A second interface (a veth pair, both ends here; this kernel has no dummy driver) and
            // 30 routes through it, in one batch: some 35 notifications within milliseconds.
            var batch = "link add wpd type veth peer name wpd2\nlink set wpd up\nlink set wpd2 up\n"
            for i in 1 ... 30 { batch += "route add 10.99.\(i).0/24 dev wpd\n" }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("burst-\(getpid()).ip")
            try batch.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            try NS.ip(["-n", pair.client, "-batch", file.path])
            #expect(paths.wait { $0.last?.availableInterfaces.contains { $0.name == "wpd" } ?? false }, "\(paths.values)")
            usleep(300_000)  // anything left of the burst would be evaluated by now
            let evaluations = monitor.evaluationCount - before
            print("burst timing: \(evaluations) evaluations, \(paths.values.count - 1) updates for one batch of 33 changes")
            #expect(evaluations >= 1 && evaluations <= 3, "one burst, a few evaluations at most (not one per notification): \(evaluations)")
            #expect(paths.values.count - 1 <= evaluations)
        }
    }

    @Test func connectionWithoutARouteWaitsForThePathThenConnectsWhenItReturns() throws {
        try NS.run(#function) { pair in
            let ns = pair.client
            try NS.ip(["-n", ns] + Self.routeDelete)
            // One attempt only: a connect that failed for want of a route would fail the connection.
            let (client, states) = makeClient(.tcp, port: NS.echoPort, host: NS.peerAddress,
                                              retry: RetryPolicy(initialDelay: 0.05, maximumDelay: 0.1, maximumAttempts: 1))
            defer { client.cancel() }
            let waitingForPath = states.wait { $0.contains { if case .waiting(.pathUnsatisfied) = $0 { return true }; return false } }
            #expect(waitingForPath, "no route: waiting with the path error: \(states.values)")
            usleep(500_000)
            #expect(!states.values.contains { $0.isTerminal }, "no attempt was burned: \(states.values)")
            #expect(client.currentPath?.status == .unsatisfied)
            try NS.ip(["-n", ns] + Self.routeAdd)
            #expect(states.waitFor(.ready), "the route back: a retry at once: \(states.values)")
            #expect(client.currentPath?.status == .satisfied)
        }
    }

    /// Run in the namespace copy, where this test is the process's only user of the feed.
    @Test func connectionsShareOneNetlinkSocketThatTheLastOneOutCloses() throws {
        try NS.run(#function) { _ in
            func descriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1 }
            let before = descriptors()
            let clients = (0 ..< 20).map { _ in makeClient(.tcp, port: NS.echoPort, host: NS.peerAddress) }
            #expect(clients.allSatisfy { $0.1.waitFor(.ready) }, "every client ready")
            // A path evaluation still running holds a netlink query socket of its own for a moment
            // (20 of them at once under TSan); what the connections keep is the fewest seen over a
            // bounded wait. A socket per connection would never drop below 40.
            var added = descriptors() - before
            for _ in 0 ..< 100 where added > 30 {
                usleep(20_000)
                added = min(added, descriptors() - before)
            }
            let shared = RouteChangeFeed.shared.subscription
            #expect(shared.isOpen && shared.subscribers == 20, "\(shared)")
            // 20 TCP sockets and one netlink socket; Dispatch and the sanitizers' runtimes may open
            // a few of their own meanwhile. One netlink socket per connection would add 40.
            #expect(added >= 21 && added <= 30, "20 connections added \(added) descriptors")
            for (client, states) in clients {
                client.cancel()
                #expect(states.waitFor(.cancelled))
            }
            var closed = false
            for _ in 0 ..< 200 where !closed {
                closed = RouteChangeFeed.shared.subscription == (isOpen: false, subscribers: 0)
                if !closed { usleep(10_000) }
            }
            #expect(closed, "the last watcher out closes the socket: \(RouteChangeFeed.shared.subscription)")
        }
    }

    @Test func readyConnectionReportsViabilityFalseWhenItsRouteGoesAndTrueWhenItReturns() throws {
        try NS.run(#function) { pair in
            let ns = pair.client
            let (client, states) = makeClient(.tcp, port: NS.echoPort, host: NS.peerAddress)
            defer { client.cancel() }
            let viability = Recorder<Bool>(), paths = Recorder<NetworkPath>()
            client.viabilityUpdateHandler = { viability.append($0) }
            client.pathUpdateHandler = { paths.append($0) }
            #expect(states.waitFor(.ready), "\(states.values)")
            #expect(client.isViable)
            try NS.ip(["-n", ns] + Self.routeDelete)
            #expect(viability.wait { $0 == [false] }, "\(viability.values)")
            #expect(paths.wait { $0.last?.status == .unsatisfied }, "\(paths.values)")
            #expect(client.currentState == .ready, "a lost route is not a failure while the socket lives")
            try NS.ip(["-n", ns] + Self.routeAdd)
            #expect(viability.wait { $0 == [false, true] }, "\(viability.values)")
            // The socket survived the outage: the echo peer still answers.
            client.send(content: Data("after".utf8))
            let echoed = receiveBlocking(client, min: 5, max: 5)
            #expect(echoed?.0 == Data("after".utf8))
        }
    }

    @Test func aRouteThroughAnotherInterfaceIsReportedAsABetterPathUntilItGoes() throws {
        try NS.run(#function) { pair in
            let ns = pair.client
            let (client, states) = makeClient(.tcp, port: NS.echoPort, host: NS.peerAddress)
            defer { client.cancel() }
            let better = Recorder<Bool>()
            client.betterPathUpdateHandler = { better.append($0) }
            #expect(states.waitFor(.ready), "\(states.values)")
            try NS.ip(["-n", ns, "link", "add", "wpe", "type", "veth", "peer", "name", "wpf"])
            try NS.ip(["-n", ns, "link", "set", "wpe", "up"])
            try NS.ip(["-n", ns, "link", "set", "wpf", "up"])
            try NS.ip(["-n", ns, "route", "add", "\(NS.peerAddress)/32", "dev", "wpe"])
            #expect(better.wait { $0 == [true] }, "a more specific route through wpe: \(better.values)")
            try NS.ip(["-n", ns, "route", "del", "\(NS.peerAddress)/32", "dev", "wpe"])
            #expect(better.wait { $0 == [true, false] }, "\(better.values)")
            #expect(client.isViable)
        }
    }
}
