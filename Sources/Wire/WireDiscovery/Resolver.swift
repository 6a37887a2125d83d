import CDNSSD
import Dispatch
import Foundation

/// Where a browsed service lives: the SRV record's target host and port.
public struct ResolvedService: Sendable, Hashable {
    public let result: BrowseResult
    /// The target host name (e.g. `host.local.`), as the SRV record names it; this resolve stops
    /// there (Avahi's dns_sd layer has no DNSServiceGetAddrInfo). To reach the service, connect to
    /// the browse result itself, `Connection(to: result, using:)`: it resolves the address too,
    /// through avahi-daemon (`AvahiServiceResolution`), without nss-mdns.
    public let host: String
    public let port: UInt16
    /// The service's TXT record as the resolve answered it.
    public let txtRecord: TXTRecord
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
                                         { _, _, _, error, _, host, port, txtLength, txt, context in
                guard let context else { return }
                let me = Unmanaged<Resolver>.fromOpaque(context).takeUnretainedValue()
                // SAFETY: `txt` points to `txtLength` bytes owned by the library for this call; copied here.
                let record = txt.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: Int(txtLength))) } ?? []
                me.resolved(error, host.map { String(cString: $0) }, UInt16(bigEndian: port), TXTRecord(decoding: record))
            }, context)
            do throws(DiscoveryError) {
                self.serviceRef = try ServiceRef.started("DNSServiceResolve", code, ref, queue: self.queue) { [weak self] in self?.pump() }
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
        if let failure = serviceRef?.process() { finish(.failure(failure)) }
    }

    private func resolved(_ error: DNSServiceErrorType, _ host: String?, _ port: UInt16, _ txt: TXTRecord) {
        guard error == DNSServiceErrorType(kDNSServiceErr_NoError) else {
            return finish(.failure(.dnssd(call: "DNSServiceResolve reply", code: error)))
        }
        finish(.success(ResolvedService(result: result, host: host ?? "", port: port, txtRecord: txt)))
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
