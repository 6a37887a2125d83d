import CDNSSD
import Dispatch
import Foundation
import WireTransport

/// A DNS-SD service instance: "name._type._tcp.domain".
public struct ServiceDescription: Sendable, Hashable, CustomStringConvertible {
    /// The instance name (UTF-8, at most 63 bytes).
    public var name: String
    /// The service type, e.g. `_wireproof._tcp` (`_udp` for datagram services).
    public var type: String
    /// The domain; `local.` for multicast DNS.
    public var domain: String

    public init(name: String, type: String, domain: String = "local.") {
        self.name = name
        self.type = type
        self.domain = domain
    }

    public var description: String { "\(name).\(type).\(domain)" }
}

/// An advertisement's lifecycle, as its state handler sees it.
public enum AdvertisementState: Sendable, Equatable {
    case setup
    /// Registered, under the name actually used: the requested one, or a renamed one when the
    /// requested name was already taken (see `Advertisement`).
    case ready(ServiceDescription)
    case failed(DiscoveryError)
    case cancelled
}

/// Advertises a port as a DNS-SD service (NWListener's `service`, on Avahi): `start(queue:)`
/// registers it, `cancel()` withdraws it, so browsers see it removed. Releasing a started
/// advertisement withdraws it too, and its state handler gets `cancelled` last.
///
/// Name conflicts: Avahi's dns_sd layer does not rename a taken name (it answers
/// kDNSServiceErr_NameConflict, -65548), so the advertisement does, as mDNSResponder would: it
/// registers again as "name (2)", "name (3)" … up to `maximumRenames` times (default 9), and reports the name
/// that stuck in `.ready`. When every one is taken it fails with `DiscoveryError.nameConflict`.
///
/// Threading: state confined to a private serial queue; callbacks run on the start queue.
public final class Advertisement: @unchecked Sendable {
    public let service: ServiceDescription
    public let port: UInt16
    /// Renamed registrations tried after a conflict before failing (0: fail on the first
    /// conflict). Read when a conflict happens.
    public var maximumRenames: Int {
        get { queue.sync { renames } }
        set { queue.sync { renames = max(0, newValue) } }
    }
    private var renames = 9
    private let queue = DispatchQueue(label: "wire.dnssd.advertisement")
    private var userQueue: DispatchQueue?
    private var handler: (@Sendable (AdvertisementState) -> Void)?
    private var state = AdvertisementState.setup
    private var serviceRef: ServiceRef?
    /// Conflicts met so far; the next registration's name is `service.name` with suffix conflicts + 1.
    private var conflicts = 0

    public init(service: ServiceDescription, port: UInt16) {
        self.service = service
        self.port = port
    }

    /// Released while started: the registration is withdrawn and, as after `cancel()`, the
    /// handler's last call is `cancelled`.
    deinit {
        serviceRef?.close()
        if state != .cancelled, let handler, let userQueue { userQueue.async { handler(.cancelled) } }
    }

    public var stateUpdateHandler: (@Sendable (AdvertisementState) -> Void)? {
        get { queue.sync { handler } }
        set { queue.sync { handler = newValue } }
    }

    public var currentState: AdvertisementState { queue.sync { state } }

    public func start(queue userQueue: DispatchQueue) {
        queue.async {
            guard case .setup = self.state else { return }
            self.userQueue = userQueue
            self.registerOrFail()
        }
    }

    /// The name to register after `conflicts` conflicts: the requested one, then "name (2)", …
    static func name(_ requested: String, afterConflicts conflicts: Int) -> String {
        conflicts == 0 ? requested : "\(requested) (\(conflicts + 1))"
    }

    /// Registers the current name. Avahi reports a taken name from the call itself (not in the
    /// reply): that case, like a conflict in the reply, moves on to the next name.
    private func registerOrFail() {
        do throws(DiscoveryError) {
            try register()
        } catch {
            if case .dnssd(_, let code) = error, code == DNSServiceErrorType(kDNSServiceErr_NameConflict) {
                renameAfterConflict()
            } else {
                report(.failed(error))
            }
        }
    }

    /// Withdraws the service (the daemon sends goodbye packets); the last state is `cancelled`.
    public func cancel() {
        queue.async {
            if case .cancelled = self.state { return }
            self.serviceRef?.close()
            self.serviceRef = nil
            self.report(.cancelled)
            self.handler = nil
        }
    }

    private func report(_ next: AdvertisementState) {
        state = next
        if let handler, let userQueue { userQueue.async { handler(next) } }
        if case .failed = next { serviceRef?.close(); serviceRef = nil }
    }

    private func register() throws(DiscoveryError) {
        _ = silenceAvahiCompatWarning
        let name = Self.name(service.name, afterConflicts: conflicts)
        guard !service.name.isEmpty, name.utf8.count <= 63 else { throw .invalidArgument("service name \"\(name)\"") }
        var ref: DNSServiceRef?
        // SAFETY: the context is this object, unretained; the callback only runs inside
        // `process()`, called on `queue` from the ref's source, which `close()` cancels before
        // this object can go away (deinit closes it).
        let context = Unmanaged.passUnretained(self).toOpaque()
        let code = DNSServiceRegister(
            &ref, 0, 0, name, service.type, service.domain, nil, port.bigEndian, 0, nil,
            { _, _, error, name, type, domain, context in
                guard let context else { return }
                let me = Unmanaged<Advertisement>.fromOpaque(context).takeUnretainedValue()
                me.registered(error, name.map { String(cString: $0) }, type.map { String(cString: $0) }, domain.map { String(cString: $0) })
            }, context)
        try check(code, "DNSServiceRegister")
        guard let ref else { throw .dnssd(call: "DNSServiceRegister", code: -65537) }
        serviceRef = ServiceRef(ref, queue: queue) { [weak self] in self?.pump() }
    }

    private func pump() {
        guard let serviceRef else { return }
        let code = serviceRef.process()
        if code != DNSServiceErrorType(kDNSServiceErr_NoError) { report(.failed(.dnssd(call: "DNSServiceProcessResult", code: code))) }
    }

    private func registered(_ error: DNSServiceErrorType, _ name: String?, _ type: String?, _ domain: String?) {
        if error == DNSServiceErrorType(kDNSServiceErr_NameConflict) {
            return renameAfterConflict()
        }
        guard error == DNSServiceErrorType(kDNSServiceErr_NoError) else {
            return report(.failed(.dnssd(call: "DNSServiceRegister reply", code: error)))
        }
        report(.ready(ServiceDescription(name: name ?? service.name, type: service.type, domain: domain ?? service.domain)))
    }
}

extension Advertisement {
    /// On `queue`, possibly inside the reply callback (inside `process()`): drops the refused
    /// registration and registers the next name, outside any callback.
    private func renameAfterConflict() {
        let taken = Self.name(service.name, afterConflicts: conflicts)
        serviceRef?.close()
        serviceRef = nil
        guard conflicts < renames else { return report(.failed(.nameConflict(name: taken))) }
        conflicts += 1
        queue.async {
            switch self.state {
            case .cancelled, .failed: return  // withdrawn meanwhile
            case .setup, .ready: self.registerOrFail()
            }
        }
    }
}

extension Listener {
    /// Advertises this (ready) listener's bound port as `service`; start the result to publish it.
    public func advertisement(_ service: ServiceDescription) throws(DiscoveryError) -> Advertisement {
        guard let port else { throw .invalidArgument("the listener has no bound port yet (start it and wait for ready)") }
        return Advertisement(service: service, port: port)
    }
}

/// One service instance a browser found, on one interface.
public struct BrowseResult: Sendable, Hashable, CustomStringConvertible {
    public let service: ServiceDescription
    public let interfaceIndex: UInt32

    public var description: String { "\(service)%\(interfaceIndex)" }
}

/// What changed between two calls of the results handler.
public enum BrowseChange: Sendable, Hashable {
    case added(BrowseResult)
    case removed(BrowseResult)
}

/// A browser's lifecycle.
public enum BrowserState: Sendable, Equatable {
    case setup
    case ready
    case failed(DiscoveryError)
    case cancelled
}

/// Browses for a service type (NWBrowser's shape, on Avahi): the results handler gets the whole
/// current set and the changes since its last call, added and removed.
public final class Browser: @unchecked Sendable {
    public let type: String
    public let domain: String?
    private let queue = DispatchQueue(label: "wire.dnssd.browser")
    private var userQueue: DispatchQueue?
    private var resultsHandler: (@Sendable (Set<BrowseResult>, [BrowseChange]) -> Void)?
    private var handler: (@Sendable (BrowserState) -> Void)?
    private var state = BrowserState.setup
    private var serviceRef: ServiceRef?
    private var results: Set<BrowseResult> = []
    private var pending: [BrowseChange] = []

    public init(type: String, domain: String? = nil) {
        self.type = type
        self.domain = domain
    }

    /// Released while started: browsing stops and, as after `cancel()`, the handler's last call
    /// is `cancelled` (before, it saw `ready` and then nothing).
    deinit {
        serviceRef?.close()
        if state != .cancelled, let handler, let userQueue { userQueue.async { handler(.cancelled) } }
    }

    public var browseResultsChangedHandler: (@Sendable (Set<BrowseResult>, [BrowseChange]) -> Void)? {
        get { queue.sync { resultsHandler } }
        set { queue.sync { resultsHandler = newValue } }
    }

    public var stateUpdateHandler: (@Sendable (BrowserState) -> Void)? {
        get { queue.sync { handler } }
        set { queue.sync { handler = newValue } }
    }

    /// The services currently seen.
    public var currentResults: Set<BrowseResult> { queue.sync { results } }

    public func start(queue userQueue: DispatchQueue) {
        queue.async {
            guard case .setup = self.state else { return }
            self.userQueue = userQueue
            do throws(DiscoveryError) {
                try self.browse()
                self.report(.ready)
            } catch {
                self.report(.failed(error))
            }
        }
    }

    public func cancel() {
        queue.async {
            if case .cancelled = self.state { return }
            self.serviceRef?.close()
            self.serviceRef = nil
            self.report(.cancelled)
            self.handler = nil
            self.resultsHandler = nil
        }
    }

    private func report(_ next: BrowserState) {
        state = next
        if let handler, let userQueue { userQueue.async { handler(next) } }
        if case .failed = next { serviceRef?.close(); serviceRef = nil }
    }

    private func browse() throws(DiscoveryError) {
        _ = silenceAvahiCompatWarning
        var ref: DNSServiceRef?
        // SAFETY: as for Advertisement.register: unretained self, callbacks only inside
        // `process()` on `queue`, the ref closed before self goes away.
        let context = Unmanaged.passUnretained(self).toOpaque()
        let code = DNSServiceBrowse(&ref, 0, 0, type, domain, { _, flags, interface, error, name, type, domain, context in
            guard let context else { return }
            let me = Unmanaged<Browser>.fromOpaque(context).takeUnretainedValue()
            me.found(flags, interface, error, name.map { String(cString: $0) }, type.map { String(cString: $0) }, domain.map { String(cString: $0) })
        }, context)
        try check(code, "DNSServiceBrowse")
        guard let ref else { throw .dnssd(call: "DNSServiceBrowse", code: -65537) }
        serviceRef = ServiceRef(ref, queue: queue) { [weak self] in self?.pump() }
    }

    private func pump() {
        guard let serviceRef else { return }
        let code = serviceRef.process()
        if code != DNSServiceErrorType(kDNSServiceErr_NoError) { report(.failed(.dnssd(call: "DNSServiceProcessResult", code: code))) }
    }

    private func found(_ flags: DNSServiceFlags, _ interface: UInt32, _ error: DNSServiceErrorType,
                       _ name: String?, _ foundType: String?, _ foundDomain: String?) {
        guard error == DNSServiceErrorType(kDNSServiceErr_NoError) else {
            return report(.failed(.dnssd(call: "DNSServiceBrowse reply", code: error)))
        }
        guard let name else { return }
        // The reply's type carries a trailing dot ("_x._tcp."); keep the caller's spelling.
        let result = BrowseResult(service: ServiceDescription(name: name, type: type, domain: foundDomain ?? domain ?? "local."),
                                  interfaceIndex: interface)
        if flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 {
            if results.insert(result).inserted { pending.append(.added(result)) }
        } else if results.remove(result) != nil {
            pending.append(.removed(result))
        }
        // Deliver once the library has no more replies queued (one call per burst).
        guard flags & DNSServiceFlags(kDNSServiceFlagsMoreComing) == 0, !pending.isEmpty else { return }
        let changes = pending, snapshot = results
        pending = []
        if let resultsHandler, let userQueue { userQueue.async { resultsHandler(snapshot, changes) } }
    }
}

/// Where a browsed service lives: the SRV record's target host and port.
public struct ResolvedService: Sendable, Hashable {
    public let result: BrowseResult
    /// The target host name (e.g. `host.local.`); turning it into an address needs mDNS name
    /// resolution (nss-mdns or the daemon), which this API does not do.
    public let host: String
    public let port: UInt16
}

/// Resolves one browse result to its host and port (DNSServiceResolve), once.
public final class Resolver: @unchecked Sendable {
    public let result: BrowseResult
    private let queue = DispatchQueue(label: "wire.dnssd.resolver")
    private var serviceRef: ServiceRef?
    private var completion: (@Sendable (Result<ResolvedService, DiscoveryError>) -> Void)?
    private var userQueue: DispatchQueue?
    private var timer: DispatchWorkItem?

    public init(_ result: BrowseResult) { self.result = result }

    deinit { serviceRef?.close() }

    /// Starts resolving; `completion` runs once on `queue`, with `.timedOut` after `timeout` seconds.
    public func start(queue userQueue: DispatchQueue, timeout: Double = 5,
                      completion: @escaping @Sendable (Result<ResolvedService, DiscoveryError>) -> Void) {
        queue.async {
            guard self.completion == nil, self.serviceRef == nil else { return }
            self.userQueue = userQueue
            self.completion = completion
            _ = silenceAvahiCompatWarning
            var ref: DNSServiceRef?
            // SAFETY: as for Advertisement.register: unretained self, callbacks only inside
            // `process()` on `queue`, the ref closed before self goes away.
            let context = Unmanaged.passUnretained(self).toOpaque()
            let service = self.result.service
            let code = DNSServiceResolve(&ref, 0, self.result.interfaceIndex, service.name, service.type, service.domain,
                                         { _, _, _, error, _, host, port, _, _, context in
                guard let context else { return }
                let me = Unmanaged<Resolver>.fromOpaque(context).takeUnretainedValue()
                me.resolved(error, host.map { String(cString: $0) }, UInt16(bigEndian: port))
            }, context)
            do throws(DiscoveryError) {
                try check(code, "DNSServiceResolve")
                guard let ref else { throw .dnssd(call: "DNSServiceResolve", code: -65537) }
                self.serviceRef = ServiceRef(ref, queue: self.queue) { [weak self] in self?.pump() }
                let timer = DispatchWorkItem { [weak self] in self?.finish(.failure(.timedOut)) }
                self.timer = timer
                self.queue.asyncAfter(deadline: .now() + timeout, execute: timer)
            } catch {
                self.finish(.failure(error))
            }
        }
    }

    public func cancel() { queue.async { self.finish(nil) } }

    private func pump() {
        guard let serviceRef else { return }
        let code = serviceRef.process()
        if code != DNSServiceErrorType(kDNSServiceErr_NoError) { finish(.failure(.dnssd(call: "DNSServiceProcessResult", code: code))) }
    }

    private func resolved(_ error: DNSServiceErrorType, _ host: String?, _ port: UInt16) {
        guard error == DNSServiceErrorType(kDNSServiceErr_NoError) else {
            return finish(.failure(.dnssd(call: "DNSServiceResolve reply", code: error)))
        }
        finish(.success(ResolvedService(result: result, host: host ?? "", port: port)))
    }

    /// Delivers the outcome (nil: cancelled, nothing delivered) once and releases the ref.
    private func finish(_ outcome: Result<ResolvedService, DiscoveryError>?) {
        timer?.cancel()
        timer = nil
        serviceRef?.close()
        serviceRef = nil
        guard let completion else { return }
        self.completion = nil
        if let outcome, let userQueue { userQueue.async { completion(outcome) } }
    }
}
