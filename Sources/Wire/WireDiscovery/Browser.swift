import CDNSSD
import Dispatch
import Foundation
import WireTransport

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

extension BrowserState: LifecycleState {
    public var phase: LifecyclePhase {
        switch self {
        case .setup: return .setup
        case .ready: return .ready
        case .failed: return .failed
        case .cancelled: return .cancelled
        }
    }
}

/// Browses for a service type (NWBrowser's shape, on Avahi): the results handler gets the whole
/// current set and the changes since its last call, added and removed.
public final class Browser: @unchecked Sendable {
    public let type: String
    public let domain: String?
    private let queue = DispatchQueue(label: "wire.dnssd.browser")
    private var lifecycle = Lifecycle<BrowserState>()
    private var resultsHandler: (@Sendable (Set<BrowseResult>, [BrowseChange]) -> Void)?
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
        lifecycle.deliverReleased()
    }

    public var browseResultsChangedHandler: (@Sendable (Set<BrowseResult>, [BrowseChange]) -> Void)? {
        get { queue.sync { resultsHandler } }
        set { queue.sync { resultsHandler = lifecycle.state == .cancelled ? nil : newValue } }
    }

    public var stateUpdateHandler: (@Sendable (BrowserState) -> Void)? {
        get { queue.sync { lifecycle.stateUpdateHandler } }
        set { queue.sync { lifecycle.stateUpdateHandler = newValue } }
    }

    /// The services currently seen.
    public var currentResults: Set<BrowseResult> { queue.sync { results } }

    public func start(queue userQueue: DispatchQueue) {
        queue.async {
            guard self.lifecycle.start(on: userQueue) else { return }
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
            guard self.lifecycle.state != .cancelled else { return }
            self.serviceRef?.close()
            self.serviceRef = nil
            self.report(.cancelled)
            self.resultsHandler = nil
        }
    }

    /// Every state change, through the lifecycle's transition function.
    private func report(_ next: BrowserState) {
        guard lifecycle.move(to: next) else { return }
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
        serviceRef = try ServiceRef.started("DNSServiceBrowse", code, ref, queue: queue) { [weak self] in self?.pump() }
    }

    private func pump() {
        if let failure = serviceRef?.process() { report(.failed(failure)) }
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
        if let resultsHandler, let userQueue = lifecycle.queue { userQueue.async { resultsHandler(snapshot, changes) } }
    }
}
