import Dispatch
import Foundation
import Glibc
import ProofSupport
import Testing
import WireDiscovery
import WireTransport

/// Set by scripts/discovery-test.sh, which runs this suite inside a network namespace of its own
/// with a private D-Bus and an avahi-daemon bound to that namespace's veth pair. Anywhere else
/// there is no daemon to talk to (and the machine's real interfaces must not be used), so the
/// daemon-backed tests are reported as skipped by `make test`; `make discovery-test` runs them.
let namespace = ProcessInfo.processInfo.environment["WIREPROOF_DISCOVERY_NAMESPACE"]

/// Values appended from callbacks, waited for with a deadline.
final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []

    func append(_ item: T) { lock.lock(); items.append(item); lock.unlock() }
    var values: [T] { lock.lock(); defer { lock.unlock() }; return items }

    func wait(timeout: Double = 10, until predicate: ([T]) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if predicate(values) { return true }
            usleep(10_000)
        }
        return predicate(values)
    }
}

/// A unique instance name per test run, so stale records from an earlier run cannot satisfy a wait.
func uniqueName(_ what: String) -> String { "wireproof \(what) \(getpid())-\(UInt32.random(in: 0 ... 99_999))" }

let serviceType = "_wireproof-test._tcp"

@Suite("Discovery (DNS-SD over Avahi)", .serialized)
struct DiscoveryTests {
    func readyListener() throws -> Listener {
        let listener = try Listener(using: .tcp)
        let states = Recorder<ListenerState>()
        listener.stateUpdateHandler = { states.append($0) }
        listener.start(queue: DispatchQueue(label: "test.listener"))
        #expect(states.wait(until: { $0.contains(.ready) }))
        return listener
    }

    @Test func advertisingAListenerBeforeItHasAPortIsRejected() throws {
        let listener = try Listener(using: .tcp)
        #expect(throws: DiscoveryError.self) { _ = try listener.advertisement(ServiceDescription(name: "x", type: serviceType)) }
        listener.cancel()
    }

    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func advertisedListenerIsBrowsedAddedThenRemovedWhenWithdrawn() throws {
        let listener = try readyListener()
        defer { listener.cancel() }
        let name = uniqueName("listener")
        let changes = Recorder<BrowseChange>()
        let browser = Browser(type: serviceType)
        browser.browseResultsChangedHandler = { _, delta in delta.forEach(changes.append) }
        let browserStates = Recorder<BrowserState>()
        browser.stateUpdateHandler = { browserStates.append($0) }
        browser.start(queue: DispatchQueue(label: "test.browser"))
        defer { browser.cancel() }
        #expect(browserStates.wait(until: { $0.contains(.ready) }))

        let advertisement = try listener.advertisement(ServiceDescription(name: name, type: serviceType))
        #expect(advertisement.port == listener.port)
        let states = Recorder<AdvertisementState>()
        advertisement.stateUpdateHandler = { states.append($0) }
        advertisement.start(queue: DispatchQueue(label: "test.advertisement"))
        #expect(states.wait(until: { $0.contains(where: { if case .ready(let s) = $0 { return s.name == name }; return false }) }),
                "advertisement states: \(states.values)")

        func seen(_ match: (BrowseChange) -> Bool) -> Bool { changes.wait(until: { $0.contains(where: match) }) }
        #expect(seen { if case .added(let r) = $0 { return r.service.name == name && r.service.type == serviceType }; return false },
                "changes: \(changes.values)")
        #expect(browser.currentResults.contains { $0.service.name == name })

        // The browsed result resolves to the listener's port, and a connection there is served.
        if let found = browser.currentResults.first(where: { $0.service.name == name }) {
            let resolved = Recorder<Result<ResolvedService, DiscoveryError>>()
            let resolver = Resolver(found)
            resolver.start(queue: DispatchQueue(label: "test.resolver")) { resolved.append($0) }
            #expect(resolved.wait(until: { !$0.isEmpty }))
            let service = try #require(resolved.values.first).get()
            #expect(service.port == listener.port)
            #expect(!service.host.isEmpty)
            let connection = Connection(host: "127.0.0.1", port: service.port, using: .tcp)
            let connectionStates = Recorder<ConnectionState>()
            connection.stateUpdateHandler = { connectionStates.append($0) }
            connection.start(queue: DispatchQueue(label: "test.client"))
            #expect(connectionStates.wait(until: { $0.contains(.ready) }))
            connection.cancel()
        }

        advertisement.cancel()
        #expect(seen { if case .removed(let r) = $0 { return r.service.name == name }; return false }, "changes: \(changes.values)")
        #expect(!browser.currentResults.contains { $0.service.name == name })
        #expect(states.wait(until: { $0.last == .cancelled }))
    }

    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func twoAdvertisementsAreSeparateResultsAndOnlyTheWithdrawnOneIsRemoved() throws {
        let listener = try readyListener()
        defer { listener.cancel() }
        let first = uniqueName("first"), second = uniqueName("second")
        let changes = Recorder<BrowseChange>()
        let browser = Browser(type: serviceType)
        browser.browseResultsChangedHandler = { _, delta in delta.forEach(changes.append) }
        browser.start(queue: DispatchQueue(label: "test.browser"))
        defer { browser.cancel() }
        let ads = try [first, second].map { name throws(DiscoveryError) in try listener.advertisement(ServiceDescription(name: name, type: serviceType)) }
        for ad in ads { ad.start(queue: DispatchQueue(label: "test.advertisement")) }
        defer { ads[1].cancel() }
        #expect(changes.wait(until: { values in
            [first, second].allSatisfy { name in values.contains { if case .added(let r) = $0 { return r.service.name == name }; return false } }
        }), "changes: \(changes.values)")
        ads[0].cancel()
        #expect(changes.wait(until: { $0.contains { if case .removed(let r) = $0 { return r.service.name == first }; return false } }))
        let names = Set(browser.currentResults.map(\.service.name))
        #expect(!names.contains(first) && names.contains(second), "results: \(names)")
        #expect(!changes.values.contains { if case .removed(let r) = $0 { return r.service.name == second }; return false })
    }

    /// Avahi refuses a name another local service holds; the advertisement renames itself, as
    /// the Bonjour API promises, and reports the name that stuck.
    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func explicitNameAlreadyTakenIsRenamedAndTheNewNameReported() throws {
        let listener = try readyListener()
        defer { listener.cancel() }
        let name = uniqueName("taken")
        let first = try listener.advertisement(ServiceDescription(name: name, type: serviceType))
        let firstStates = Recorder<AdvertisementState>()
        first.stateUpdateHandler = { firstStates.append($0) }
        first.start(queue: DispatchQueue(label: "test.first"))
        defer { first.cancel() }
        #expect(firstStates.wait(until: { $0.contains(.ready(ServiceDescription(name: name, type: serviceType))) }), "\(firstStates.values)")

        // Another service (another port: identical records would not conflict) asks for the same name.
        let other = try readyListener()
        defer { other.cancel() }
        let second = try other.advertisement(ServiceDescription(name: name, type: serviceType))
        let secondStates = Recorder<AdvertisementState>()
        second.stateUpdateHandler = { secondStates.append($0) }
        second.start(queue: DispatchQueue(label: "test.second"))
        defer { second.cancel() }
        let renamed = ServiceDescription(name: "\(name) (2)", type: serviceType)
        #expect(secondStates.wait(until: { $0.contains(.ready(renamed)) }), "\(secondStates.values)")
        #expect(!secondStates.values.contains { if case .failed = $0 { return true }; return false }, "\(secondStates.values)")
    }

    /// With renaming off (or every rename taken) a conflict is a typed error naming the name.
    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func takenNameWithoutRenamesLeftFailsWithANameConflict() throws {
        let listener = try readyListener(), other = try readyListener()
        defer { listener.cancel(); other.cancel() }
        let name = uniqueName("held")
        let first = try listener.advertisement(ServiceDescription(name: name, type: serviceType))
        let firstStates = Recorder<AdvertisementState>()
        first.stateUpdateHandler = { firstStates.append($0) }
        first.start(queue: DispatchQueue(label: "test.first"))
        defer { first.cancel() }
        #expect(firstStates.wait(until: { $0.contains { if case .ready = $0 { return true }; return false } }))
        let second = try other.advertisement(ServiceDescription(name: name, type: serviceType))
        second.maximumRenames = 0
        let states = Recorder<AdvertisementState>()
        second.stateUpdateHandler = { states.append($0) }
        second.start(queue: DispatchQueue(label: "test.second"))
        defer { second.cancel() }
        #expect(states.wait(until: { $0.contains(.failed(.nameConflict(name: name))) }), "\(states.values)")
    }

    /// A browser released after `start()` reports `cancelled` as its last state.
    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func browserReleasedAfterStartReportsCancelled() throws {
        let states = Recorder<BrowserState>()
        weak var released: Browser?
        do {
            let browser = Browser(type: serviceType)
            released = browser
            browser.stateUpdateHandler = { states.append($0) }
            browser.start(queue: DispatchQueue(label: "test.browser"))
            #expect(states.wait(until: { $0.contains(.ready) }))
        }
        #expect(states.wait(until: { $0.last == .cancelled }), "states: \(states.values)")
        #expect(released == nil, "the browser is gone")
    }

    /// Resolves the first browse result named `name` (browsing until it appears).
    private func resolve(_ name: String) throws -> ResolvedService {
        let browser = Browser(type: serviceType)
        browser.start(queue: DispatchQueue(label: "test.browser"))
        defer { browser.cancel() }
        let appeared = Recorder<Bool>()
        _ = appeared.wait { _ in browser.currentResults.contains { $0.service.name == name } }
        let found = try #require(browser.currentResults.first { $0.service.name == name }, "\(name) never browsed")
        let resolved = Recorder<Result<ResolvedService, DiscoveryError>>()
        let resolver = Resolver(found)  // kept until the answer: a released resolver stops
        resolver.start(queue: DispatchQueue(label: "test.resolver")) { resolved.append($0) }
        #expect(withExtendedLifetime(resolver) { resolved.wait(until: { !$0.isEmpty }) })
        return try #require(resolved.values.first).get()
    }

    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func aTXTRecordIsResolvedAndAnUpdateReplacesIt() throws {
        let listener = try readyListener()
        defer { listener.cancel() }
        let name = uniqueName("txt")
        let advertisement = try listener.advertisement(ServiceDescription(name: name, type: serviceType),
                                                       txtRecord: try TXTRecord(["path": "/chat", "v": "1"]))
        let states = Recorder<AdvertisementState>()
        advertisement.stateUpdateHandler = { states.append($0) }
        advertisement.start(queue: DispatchQueue(label: "test.advertisement"))
        defer { advertisement.cancel() }
        #expect(states.wait(until: { $0.contains { if case .ready = $0 { return true }; return false } }), "\(states.values)")
        let first = try resolve(name)
        #expect(first.txtRecord["path"] == "/chat" && first.txtRecord["v"] == "1", "\(first.txtRecord)")

        advertisement.txtRecord = try TXTRecord(["v": "2"])
        let updated = Recorder<TXTRecord>()
        #expect(updated.wait { _ in
            if let again = try? resolve(name) { updated.append(again.txtRecord) }
            return updated.values.last?["v"] == "2"
        }, "\(updated.values)")
        #expect(updated.values.last?["path"] == nil)
        #expect(!states.values.contains { if case .failed = $0 { return true }; return false }, "\(states.values)")
    }

    /// avahi-publish, a peer nobody here wrote, publishes a service with TXT attributes; the
    /// browser finds it and the resolver reads them. The other way, avahi-browse reads ours.
    @Test(.enabled(if: namespace != nil, "needs make discovery-test's namespace and avahi-daemon"))
    func txtRecordsCrossBetweenAvahisToolsAndThisAPI() throws {
        let theirs = uniqueName("avahi-publish")
        let log = "/tmp/wireproof-avahi-publish-\(getpid()).log"
        let publisher = try ChildProcess.launch("/usr/bin/timeout", ["20", "/usr/bin/avahi-publish", "-s", theirs, serviceType, "4242",
                                                                     "role=device", "fw=1.2"], stdout: log, stderr: log + ".err")
        defer { _ = ChildProcess.stop(publisher) }
        let resolved = try resolve(theirs)
        #expect(resolved.port == 4242)
        #expect(resolved.txtRecord["role"] == "device" && resolved.txtRecord["fw"] == "1.2", "\(resolved.txtRecord)")

        let listener = try readyListener()
        defer { listener.cancel() }
        let ours = uniqueName("ours")
        let advertisement = try listener.advertisement(ServiceDescription(name: ours, type: serviceType),
                                                       txtRecord: try TXTRecord(["path": "/chat"]))
        advertisement.start(queue: DispatchQueue(label: "test.advertisement"))
        defer { advertisement.cancel() }
        _ = try resolve(ours)
        let browse = try ChildProcess.run("/usr/bin/timeout", ["10", "/usr/bin/avahi-browse", "-r", "-t", "-p", serviceType])
        let line = String(decoding: browse.stdout, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("=") && $0.contains(ours.replacingOccurrences(of: " ", with: "\\032")) }
        #expect(line?.contains("\"path=/chat\"") == true, "avahi-browse: \(String(decoding: browse.stdout, as: UTF8.self)) \(browse.stderrText)")
    }
}
