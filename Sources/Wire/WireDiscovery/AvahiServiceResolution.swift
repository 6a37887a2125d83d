import CAvahiClient
import Dispatch
import Foundation
import Glibc
import WireTransport

/// One resolution of a browse result to its SRV target and address, through Avahi's client library
/// (`avahi_service_resolver_new` answers the address with the SRV data; the dns_sd layer cannot).
///
/// Ownership: the resolution owns its AvahiThreadedPoll (one thread), AvahiClient (one D-Bus
/// connection) and AvahiServiceResolver from `start` until `finish`, which stops the poll's thread
/// first and then frees all three, exactly once. While they exist, the poll thread holds a +1
/// reference to this object (the callbacks' userdata), so the object outlives every callback;
/// `finish` drops that reference. `finish` runs on every way out: an answer, Avahi's failure,
/// the client's failure, `timeout`, or `cancel()`; so nothing outlives `timeout` seconds.
///
/// Threading: `start`, `cancel` and `finish` run on the private serial queue; Avahi's callbacks
/// run on the poll's thread (or, for the client's first state, inside `avahi_client_new` on the
/// queue) and only read their arguments, then hop to the queue.
final class AvahiServiceResolution: ServiceResolution, @unchecked Sendable {
    typealias Completion = @Sendable (Result<ResolvedServiceEndpoint, WireError>) -> Void

    private let result: BrowseResult
    private let queue = DispatchQueue(label: "wire.avahi.resolution")
    private var completion: Completion?
    // SAFETY: the three Avahi objects are valid from their creation in `start` until `finish`
    // frees them (after stopping the poll thread, so no callback runs during or after the free).
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var resolver: OpaquePointer?
    private var pollRunning = false
    private var timer: DispatchWorkItem?

    /// Resolutions whose Avahi objects are not yet freed (tests check it returns to its start).
    package static var live: Int { liveCount.withLock { $0 } }
    private static let liveCount = LockedCounter()

    init(_ result: BrowseResult) { self.result = result }

    private var serviceName: String { result.service.description }

    /// Starts resolving; `completion` runs at most once, on the private queue.
    func start(timeout: Double, completion: @escaping Completion) {
        queue.async {
            guard self.completion == nil, self.poll == nil else { return }
            self.completion = completion
            Self.liveCount.add(1)
            if let failure = self.begin() { return self.finish(.failure(failure)) }
            let timer = DispatchWorkItem { [weak self] in
                guard let self else { return }
                self.finish(.failure(.serviceResolution(service: self.serviceName, reason: "no answer from avahi-daemon within \(timeout) s")))
            }
            self.timer = timer
            self.queue.asyncAfter(deadline: .now() + timeout, execute: timer)
        }
    }

    func cancel() { queue.async { self.finish(nil) } }

    /// Creates the poll, the client and the resolver, then starts the poll's thread; the error if
    /// any step failed (what was created is freed by `finish`).
    private func begin() -> WireError? {
        func failure(_ step: String, _ code: Int32) -> WireError {
            .serviceResolution(service: serviceName, reason: "\(step): \(String(cString: avahi_strerror(code)))")
        }
        guard let poll = avahi_threaded_poll_new() else { return failure("avahi_threaded_poll_new", Int32(AVAHI_ERR_NO_MEMORY)) }
        self.poll = poll
        // SAFETY: +1 for the poll thread's callbacks; released by `finish` once the thread is stopped.
        let context = Unmanaged.passRetained(self).toOpaque()
        var error: Int32 = 0
        client = avahi_client_new(avahi_threaded_poll_get(poll), AvahiClientFlags(0), { client, state, context in
            guard state == AVAHI_CLIENT_FAILURE, let client, let context else { return }
            let me = Unmanaged<AvahiServiceResolution>.fromOpaque(context).takeUnretainedValue()
            let reason = "the daemon connection failed: \(String(cString: avahi_strerror(avahi_client_errno(client))))"
            me.queue.async { me.finish(.failure(.serviceResolution(service: me.serviceName, reason: reason))) }
        }, context, &error)
        guard let client else { return failure("avahi_client_new", error) }
        let service = result.service
        let interface = result.interfaceIndex == 0 ? AvahiIfIndex(AVAHI_IF_UNSPEC) : AvahiIfIndex(bitPattern: result.interfaceIndex)
        resolver = avahi_service_resolver_new(
            client, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC), service.name, service.type, service.domain,
            AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiLookupFlags(0),
            { _, interface, _, event, _, _, _, host, address, port, _, _, context in
                guard let context else { return }
                let me = Unmanaged<AvahiServiceResolution>.fromOpaque(context).takeUnretainedValue()
                let outcome = me.outcome(event, interface, host.map { String(cString: $0) }, address, port)
                me.queue.async { me.finish(outcome) }
            }, context)
        guard resolver != nil else { return failure("avahi_service_resolver_new", avahi_client_errno(client)) }
        guard avahi_threaded_poll_start(poll) == 0 else { return failure("avahi_threaded_poll_start", Int32(AVAHI_ERR_FAILURE)) }
        pollRunning = true
        return nil
    }

    /// On the poll thread: what one resolver event means.
    private func outcome(_ event: AvahiResolverEvent, _ interface: AvahiIfIndex, _ host: String?,
                         _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16) -> Result<ResolvedServiceEndpoint, WireError> {
        guard event == AVAHI_RESOLVER_FOUND, let host, let address else {
            let code = client.map { avahi_client_errno($0) } ?? Int32(AVAHI_ERR_FAILURE)
            return .failure(.serviceResolution(service: serviceName, reason: "avahi: \(String(cString: avahi_strerror(code)))"))
        }
        var text = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        // SAFETY: `address` is valid for this callback; `text` holds AVAHI_ADDRESS_STR_MAX bytes.
        avahi_address_snprint(&text, text.count, address)
        var literal = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // A link-local IPv6 address is reachable only through the interface it was seen on.
        if address.pointee.proto == AvahiProtocol(AVAHI_PROTO_INET6), literal.lowercased().hasPrefix("fe80:") { literal += "%\(interface)" }
        do {
            return .success(ResolvedServiceEndpoint(targetHost: host, addresses: [try SocketAddress(numericHost: literal, port: port)]))
        } catch {
            return .failure(.serviceResolution(service: serviceName, reason: "the answered address \(literal) is unusable: \(error)"))
        }
    }

    /// Frees everything and delivers `outcome` (nil: cancelled, nothing delivered); once.
    private func finish(_ outcome: Result<ResolvedServiceEndpoint, WireError>?) {
        guard let completion else { return }
        self.completion = nil
        timer?.cancel()
        timer = nil
        if let poll {
            if pollRunning { avahi_threaded_poll_stop(poll) }  // joins the thread: no callback after this
            if let resolver { avahi_service_resolver_free(resolver) }
            if let client { avahi_client_free(client) }
            avahi_threaded_poll_free(poll)
            // SAFETY: balances the passRetained of `begin`; the caller's closure still holds self.
            Unmanaged.passUnretained(self).release()
        }
        resolver = nil
        client = nil
        poll = nil
        pollRunning = false
        Self.liveCount.add(-1)
        if let outcome { completion(outcome) }
    }
}

/// A counter behind a lock.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add(_ delta: Int) { lock.lock(); value += delta; lock.unlock() }
    func withLock<R>(_ body: (Int) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(value) }
}

extension BrowseResult: ServiceEndpoint {
    /// "name._type._tcp.local.": what `Connection(to: result, using:)` reports as its host.
    public var serviceName: String { service.description }

    /// Resolves this result through avahi-daemon to its SRV target and one address (Avahi's
    /// resolver answers one; IPv4 or IPv6, whichever the daemon finds first). Bounded by
    /// `serviceResolutionTimeout`; the connection's own connect timeout may end it sooner.
    public func resolve(completion: @escaping @Sendable (Result<ResolvedServiceEndpoint, WireError>) -> Void) -> any ServiceResolution {
        let resolution = AvahiServiceResolution(self)
        resolution.start(timeout: Self.serviceResolutionTimeout, completion: completion)
        return resolution
    }

    /// Seconds one resolution may take before it fails with `serviceResolution` (Avahi's own
    /// resolver gives up after about 5 s on a service that has gone away).
    public static let serviceResolutionTimeout: Double = 10
}
