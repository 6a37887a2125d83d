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

extension AdvertisementState: LifecycleState {
    public var phase: LifecyclePhase {
        switch self {
        case .setup: return .setup
        case .ready: return .ready
        case .failed: return .failed
        case .cancelled: return .cancelled
        }
    }
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
    private var lifecycle = Lifecycle<AdvertisementState>()
    private var serviceRef: ServiceRef?
    /// Conflicts met so far; the next registration's name is `service.name` with suffix conflicts + 1.
    private var conflicts = 0
    private var txt: TXTRecord

    public init(service: ServiceDescription, port: UInt16, txtRecord: TXTRecord = TXTRecord()) {
        self.service = service
        self.port = port
        self.txt = txtRecord
    }

    /// The service's TXT record. Set while registered, it replaces the published record
    /// (DNSServiceUpdateRecord; browsers that resolve again see the new one); a refused update
    /// fails the advertisement with the call named.
    public var txtRecord: TXTRecord {
        get { queue.sync { txt } }
        set {
            queue.async {
                self.txt = newValue
                guard case .ready = self.lifecycle.state, let serviceRef = self.serviceRef else { return }
                let code = serviceRef.updateTXTRecord(newValue.bytes)
                if code != DNSServiceErrorType(kDNSServiceErr_NoError) {
                    self.report(.failed(.dnssd(call: "DNSServiceUpdateRecord", code: code)))
                }
            }
        }
    }

    /// Released while started: the registration is withdrawn and, as after `cancel()`, the
    /// handler's last call is `cancelled`.
    deinit {
        serviceRef?.close()
        lifecycle.deliverReleased()
    }

    public var stateUpdateHandler: (@Sendable (AdvertisementState) -> Void)? {
        get { queue.sync { lifecycle.stateUpdateHandler } }
        set { queue.sync { lifecycle.stateUpdateHandler = newValue } }
    }

    public var currentState: AdvertisementState { queue.sync { lifecycle.state } }

    public func start(queue userQueue: DispatchQueue) {
        queue.async {
            guard self.lifecycle.start(on: userQueue) else { return }
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
            guard self.lifecycle.state != .cancelled else { return }
            self.serviceRef?.close()
            self.serviceRef = nil
            self.report(.cancelled)
        }
    }

    /// Every state change, through the lifecycle's transition function.
    private func report(_ next: AdvertisementState) {
        guard lifecycle.move(to: next) else { return }
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
        let txtBytes = txt.bytes
        let code = DNSServiceRegister(
            &ref, 0, 0, name, service.type, service.domain, nil, port.bigEndian, UInt16(txtBytes.count), txtBytes,
            { _, _, error, name, type, domain, context in
                guard let context else { return }
                let me = Unmanaged<Advertisement>.fromOpaque(context).takeUnretainedValue()
                me.registered(error, name.map { String(cString: $0) }, type.map { String(cString: $0) }, domain.map { String(cString: $0) })
            }, context)
        serviceRef = try ServiceRef.started("DNSServiceRegister", code, ref, queue: queue) { [weak self] in self?.pump() }
    }

    private func pump() {
        if let failure = serviceRef?.process() { report(.failed(failure)) }
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
            switch self.lifecycle.state {
            case .cancelled, .failed: return  // withdrawn meanwhile
            case .setup, .ready: self.registerOrFail()
            }
        }
    }
}

extension Listener {
    /// Advertises this (ready) listener's bound port as `service`, with `txtRecord`; start the
    /// result to publish it.
    public func advertisement(_ service: ServiceDescription, txtRecord: TXTRecord = TXTRecord()) throws(DiscoveryError) -> Advertisement {
        guard let port else { throw .invalidArgument("the listener has no bound port yet (start it and wait for ready)") }
        return Advertisement(service: service, port: port, txtRecord: txtRecord)
    }
}
