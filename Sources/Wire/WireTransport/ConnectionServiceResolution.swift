import Dispatch

/// Connecting to a service endpoint: each attempt resolves the service first, inside preparing
/// (step `resolvingService`), then races connects over the addresses it answered, as for a host.
/// Everything except the initializer runs on the connection's queue.
///
/// Every way out goes through the connection's one state machine: an answer moves the stage on
/// with `serviceResolved`; a failure, or no answer within `TCPOptions.connectionTimeout`, is an
/// attempt failure (`serviceResolution`, recoverable: `waiting`, then a new resolution under the
/// retry policy); `cancel()` tears down, which cancels the resolution in flight. An answer that
/// arrives after any of those (an older attempt's, or one racing a cancel) is dropped.
extension Connection {
    /// A connection to `service` (Network.framework's `NWConnection(to: .service(…), using:)`).
    /// `host` is the service's name and `port` 0; `remoteAddress` tells where it connected.
    public convenience init(to service: some ServiceEndpoint, using parameters: Parameters) {
        let name = service.serviceName
        self.init(host: name, port: 0, using: parameters, resolver: { _, _, _ throws(WireError) in
            throw .serviceResolution(service: name, reason: "a service endpoint has no host to look up")
        })
        serviceEndpoint = service
    }

    /// Starts resolving `service` for the current attempt, under the connect timeout.
    func resolveService(_ service: any ServiceEndpoint) {
        let attempt = attempts
        if let limit = parameters.tcp.connectionTimeout {
            arm(deadline: limit) { [weak self] in
                guard let self, case .preparing(.resolvingService) = self.stage else { return }
                self.serviceResolution?.cancel()
                self.serviceResolution = nil
                self.attemptFailed(.serviceResolution(service: service.serviceName, reason: "no answer within \(limit) s"))
            }
        }
        serviceResolution = service.resolve { [weak self] outcome in
            guard let self else { return }
            self.queue.async { self.serviceResolved(outcome, attempt: attempt) }
        }
    }

    /// The answer of attempt `attempt`'s resolution; dropped unless that attempt is still resolving.
    func serviceResolved(_ outcome: Result<ResolvedServiceEndpoint, WireError>, attempt: Int) {
        guard attempt == attempts, case .preparing(.resolvingService) = stage else { return }
        serviceResolution?.cancel()
        serviceResolution = nil
        disarmDeadline()
        switch outcome {
        case .failure(let error):
            attemptFailed(error)
        case .success(let found) where found.addresses.isEmpty:
            attemptFailed(.serviceResolution(service: host, reason: "the answer (target \(found.targetHost)) has no address"))
        case .success(let found):
            serviceTarget = found.targetHost.hasSuffix(".") ? String(found.targetHost.dropLast()) : found.targetHost
            apply(.serviceResolved)
            raceConnects(to: found.addresses)
        }
    }
}
