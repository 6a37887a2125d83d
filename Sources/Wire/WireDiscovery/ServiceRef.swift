import CDNSSD
import Dispatch
import Glibc

/// Every error discovery reports.
public enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A dns_sd call failed: the call and its DNSServiceErrorType (e.g. -65537 unknown: is the
    /// Avahi daemon running and reachable over D-Bus?).
    case dnssd(call: String, code: Int32)
    /// A name, type or domain the API cannot take (empty, or too long for DNS).
    case invalidArgument(String)
    /// A resolve got no answer in time.
    case timedOut
    /// The service name, and every renamed variant tried after it, is held by another service.
    case nameConflict(name: String)

    public var description: String {
        switch self {
        case let .dnssd(call, code):
            let hint = code == -65537 ? " (unknown error: is avahi-daemon running, and its D-Bus reachable?)" : ""
            return "\(call) failed with DNSServiceErrorType \(code)\(hint)"
        case let .invalidArgument(what): return "invalid argument: \(what)"
        case .timedOut: return "no answer in time"
        case let .nameConflict(name): return "service name conflict: \"\(name)\" (and the names before it) already taken"
        }
    }
}

/// The one owner of a `DNSServiceRef` and the read source on its socket.
///
/// The library's socket belongs to the ref: `DNSServiceRefDeallocate` closes it. So the source is
/// cancelled first and the ref deallocated in the source's cancel handler, after which Dispatch no
/// longer watches the descriptor. Confined to `queue` (the owner's private queue).
final class ServiceRef {
    // SAFETY: valid from a successful DNSService* call until the cancel handler deallocates it,
    // exactly once; `process()` is never called after `close()` (the source is cancelled first,
    // and both run on the same serial queue).
    private let ref: DNSServiceRef
    private let source: DispatchSourceRead
    private var closed = false

    /// The result of a DNSService* call that starts an operation (`code`, and the ref it wrote):
    /// the ref taken as `init` takes it, or the call's failure. -65537 (kDNSServiceErr_Unknown)
    /// stands for a call that reported success without writing a ref.
    static func started(_ call: String, _ code: DNSServiceErrorType, _ ref: DNSServiceRef?, queue: DispatchQueue,
                        onReadable: @escaping () -> Void) throws(DiscoveryError) -> ServiceRef {
        try check(code, call)
        guard let ref else { throw .dnssd(call: call, code: -65537) }
        return ServiceRef(ref, queue: queue, onReadable: onReadable)
    }

    /// Takes `ref`, watches its socket on `queue`, and calls `onReadable` there for each event.
    init(_ ref: DNSServiceRef, queue: DispatchQueue, onReadable: @escaping () -> Void) {
        self.ref = ref
        source = DispatchSource.makeReadSource(fileDescriptor: DNSServiceRefSockFD(ref), queue: queue)
        source.setEventHandler(handler: onReadable)
        source.setCancelHandler { [ref] in DNSServiceRefDeallocate(ref) }
        source.activate()
    }

    /// Reads one reply and runs the callback it carries (on the calling thread, i.e. the queue);
    /// nil when that worked (or the ref is closed), else the failure the owner reports.
    func process() -> DiscoveryError? {
        guard !closed else { return nil }
        let code = DNSServiceProcessResult(ref)
        return code == DNSServiceErrorType(kDNSServiceErr_NoError) ? nil : .dnssd(call: "DNSServiceProcessResult", code: code)
    }

    /// Replaces the registration's TXT record (DNSServiceUpdateRecord on its primary record).
    func updateTXTRecord(_ bytes: [UInt8]) -> DNSServiceErrorType {
        guard !closed else { return DNSServiceErrorType(kDNSServiceErr_BadReference) }
        return DNSServiceUpdateRecord(ref, nil, 0, UInt16(bytes.count), bytes, 0)
    }

    /// Stops watching and releases the ref (asynchronously, in the cancel handler). Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        source.cancel()
    }

    deinit {
        precondition(closed, "ServiceRef released without close(): the DNS-SD registration would leak")
    }
}

/// Converts a dns_sd status into a Swift error.
func check(_ code: DNSServiceErrorType, _ call: String) throws(DiscoveryError) {
    guard code == DNSServiceErrorType(kDNSServiceErr_NoError) else { throw .dnssd(call: call, code: code) }
}

/// Avahi's compatibility layer prints a warning on every use unless told not to.
let silenceAvahiCompatWarning: Void = { setenv("AVAHI_COMPAT_NOWARN", "1", 0) }()
