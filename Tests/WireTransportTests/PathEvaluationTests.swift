import Dispatch
import Foundation
import Glibc
import Testing
@testable import WireTransport

/// What a path watcher evaluates and a path monitor delivers, in this process's own network
/// namespace, through loopback routes only (which no other test changes). Each watcher check runs
/// inside one `queue.sync` block, so no notification's evaluation can slip in between its steps.
@Suite struct PathEvaluationTests {
    @Test func aRemotesScopeOnLoopbackIsSatisfiedThroughLoOnceAndOnlyForIPv4() throws {
        let queue = DispatchQueue(label: "path-evaluation-remotes")
        let changes = Recorder<NetworkPath>()
        let lo = Int32(if_nametoindex("lo"))
        try #require(lo > 0)
        try queue.sync {
            let remotes = [loopback("127.0.0.1", port: 7), loopback("127.0.0.2", port: 7)]
            let watcher = try PathWatcher(scope: .remotes(remotes), queue: queue) { changes.append($0) }
            defer { watcher.cancel() }
            #expect(watcher.path == nil && watcher.evaluationCount == 0, "nothing is evaluated before start")
            let first = watcher.start()
            #expect(watcher.path == first && watcher.evaluationCount == 1)
            #expect(first.status == .satisfied && first.unsatisfiedReason == nil, "\(first)")
            #expect(first.supportsIPv4 && !first.supportsIPv6, "two IPv4 remotes: \(first)")
            // Both remotes route through lo: it is listed once.
            #expect(first.availableInterfaces.map(\.name) == ["lo"], "\(first.availableInterfaces)")
            #expect(first.availableInterfaces.first?.index == Int(lo) && first.availableInterfaces.first?.type == .loopback)
            #expect(watcher.routeInterfaceIndex == lo)

            watcher.refresh()
            #expect(watcher.evaluationCount == 2 && watcher.path == first, "a refresh evaluates once more, to the same path")
        }
        queue.sync {}
        #expect(changes.values.isEmpty, "start and refresh report through their result, not onChange: \(changes.values)")
    }

    @Test func aScopeWithoutRemotesIsUnsatisfiedAndForgetsTheLastRouteInterface() throws {
        let queue = DispatchQueue(label: "path-evaluation-empty")
        try queue.sync {
            let watcher = try PathWatcher(scope: .remotes([loopback("127.0.0.1", port: 7)]), queue: queue) { _ in }
            defer { watcher.cancel() }
            watcher.start()
            #expect(watcher.routeInterfaceIndex != nil)
            watcher.scope = .remotes([])
            watcher.refresh()
            let path = try #require(watcher.path)
            #expect(path.status == .unsatisfied && path.unsatisfiedReason == "no usable route", "\(path)")
            #expect(path.availableInterfaces.isEmpty && !path.supportsIPv4 && !path.supportsIPv6)
            #expect(watcher.routeInterfaceIndex == nil, "the interface of a route no longer asked about")
        }
    }

    @Test func aMonitorStartedTwiceDeliversItsFirstPathOnce() throws {
        let monitor = try PathMonitor(remoteHost: "127.0.0.1")
        defer { monitor.cancel() }
        let paths = Recorder<NetworkPath>()
        let userQueue = DispatchQueue(label: "path-monitor-twice")
        #expect(monitor.currentPath == nil, "no path before start")
        monitor.pathUpdateHandler = { paths.append($0) }
        monitor.start(queue: userQueue)
        monitor.start(queue: userQueue)
        let current = monitor.currentPath  // both starts have run on the monitor's queue
        userQueue.sync {}  // and what they delivered has run
        #expect(paths.values.count == 1, "\(paths.values)")
        #expect(paths.values.first == current && current?.status == .satisfied, "the route to 127.0.0.1: \(String(describing: current))")
    }

    @Test func aMonitorCancelledBeforeStartNeverEvaluatesAndDropsLaterHandlers() throws {
        let monitor = try PathMonitor(remoteHost: "127.0.0.1")
        let paths = Recorder<NetworkPath>()
        let userQueue = DispatchQueue(label: "path-monitor-cancelled")
        monitor.pathUpdateHandler = { paths.append($0) }
        monitor.cancel()
        #expect(monitor.pathUpdateHandler == nil, "cancel lets go of the handler")
        monitor.pathUpdateHandler = { paths.append($0) }
        #expect(monitor.pathUpdateHandler == nil, "a handler set after cancel is dropped")
        monitor.start(queue: userQueue)
        #expect(monitor.currentPath == nil && monitor.evaluationCount == 0, "start after cancel does nothing")
        userQueue.sync {}
        #expect(paths.values.isEmpty)
    }
}
