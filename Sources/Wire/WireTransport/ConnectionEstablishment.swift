import CWireTransport
import Dispatch
import Foundation
import Glibc

/// Establishing a connection: the connect race, the TLS handshake, their deadlines, retries.
/// Everything here runs on the connection's queue.
extension Connection {
    // MARK: connecting

    func beginAttempt() {
        attempts += 1
        switch origin {
        case .accepted(let context):
            guard let socket = acceptedSocket else { return apply(.fatalFailure(.notConnected)) }
            acceptedSocket = nil
            tlsContext = context
            let channel = IOChannel(socket: socket, queue: queue)
            install(channel)
            connected()
        case .udpChild:
            apply(.established)
            service()  // datagrams and receives queued before start (the listener feeds them early)
        case .outbound:
            connectOutbound()
        }
    }

    /// Resolves the host (or, for a service endpoint, starts resolving the service, which calls
    /// `raceConnects` when it answers), then races connects over every address.
    func connectOutbound() {
        if let serviceEndpoint { return resolveService(serviceEndpoint) }
        let addresses: [SocketAddress]
        do {
            addresses = try resolver(host, port, parameters.isDatagram)
        } catch {
            return apply(.fatalFailure(error))
        }
        guard !addresses.isEmpty else { return apply(.fatalFailure(.resolution(host: host, reason: "no address"))) }
        raceConnects(to: addresses)
    }

    /// Races connects over `addresses` (`ConnectRace`) under the connection timeout; the winner's
    /// channel becomes the connection's.
    func raceConnects(to addresses: [SocketAddress]) {
        let localAddresses: [SocketAddress]
        do {
            localAddresses = try parameters.requiredLocalEndpoint?.addresses(datagram: parameters.isDatagram) ?? []
            if let options = parameters.tls, tlsContext == nil {
                tlsContext = try TLSContext(options: options, server: false)
            }
        } catch {
            return apply(.fatalFailure(error))
        }
        guard pathAllowsConnect(to: addresses) else { return }  // waiting for a route (Connection+Path.swift)
        let parameters = parameters
        let race = ConnectRace(addresses: addresses, datagram: parameters.isDatagram,
                               attemptDelay: parameters.tcp.connectionAttemptDelay, queue: queue,
                               prepare: { fd, family throws(WireError) in
                                   try parameters.applyLocalOptions(fd)
                                   try parameters.bindLocalEndpoint(fd, family: family, localAddresses: localAddresses)
                               }) { [weak self] outcome in
            self?.raceFinished(outcome)
        }
        self.race = race
        if let limit = parameters.tcp.connectionTimeout {
            arm(deadline: limit) { [weak self] in
                guard let self, let race = self.race else { return }
                race.cancel()
                self.race = nil
                self.attemptFailed(.timedOut(.connect, seconds: limit))
            }
        }
        race.start()
    }

    func raceFinished(_ outcome: ConnectRace.Outcome) {
        race = nil
        switch outcome {
        case .success(let winner):
            install(winner.channel)
            peerAddress = winner.address
            connected()
        case .failure(let error):
            attemptFailed(error)
        }
    }

    /// Runs `expired` on the queue after `seconds` unless disarmed first (by the next `arm`, by
    /// `disarmDeadline()`, or by teardown). One deadline at a time: connect, then handshake.
    func arm(deadline seconds: Double, _ expired: @escaping () -> Void) {
        deadline?.cancel()
        let item = DispatchWorkItem { [weak self] in
            guard let self, self.deadline != nil else { return }
            self.deadline = nil
            expired()
        }
        deadline = item
        queue.asyncAfter(deadline: .now() + seconds, execute: item)
    }

    func disarmDeadline() {
        deadline?.cancel()
        deadline = nil
    }

    func install(_ channel: IOChannel) {
        self.channel = channel
        channel.onReadable = { [weak self] in self?.service() }
        channel.onWritable = { [weak self] in self?.service() }
    }

    /// One connect attempt failed: close its socket; wait and retry if the error is recoverable
    /// and attempts remain, fail otherwise.
    func attemptFailed(_ error: WireError) {
        disarmDeadline()
        race?.cancel()
        race = nil
        channel?.close()
        channel = nil
        let policy = _retryPolicy
        guard error.isRecoverableConnectError, policy.maximumAttempts.map({ attempts < $0 }) ?? true else {
            return apply(.fatalFailure(error))
        }
        apply(.recoverableFailure(error))
        let timer = DispatchWorkItem { [weak self] in
            guard let self, case .waiting = self.state else { return }
            self.retryTimer = nil
            self.apply(.retry)
            self.beginAttempt()
        }
        retryTimer = timer
        queue.asyncAfter(deadline: .now() + policy.delay(afterAttempt: attempts), execute: timer)
    }

    /// TCP connected (or accepted, or UDP associated): start TLS or become ready.
    func connected() {
        disarmDeadline()
        guard let channel else { return }
        if !parameters.isDatagram {
            do {
                try channel.socket.withDescriptor { fd throws(SystemError) in try parameters.tcp.apply(to: fd) }
            } catch {
                return apply(.fatalFailure(error.wireError))
            }
        }
        guard let context = tlsContext else { return establish() }
        let isServer: Bool
        if case .accepted = origin { isServer = true } else { isServer = false }
        var verifyName: String?
        if let options = parameters.tls, options.checksPeer(server: false), !isServer { verifyName = options.serverName ?? serviceTarget ?? host }
        // The session's own error (a WireError naming the OpenSSL failure) is reported as is.
        let session: Result<TLSSession, WireError>
        do {
            session = try channel.socket.withDescriptor { fd throws(SystemError) in
                Result { () throws(WireError) in try TLSSession(context: context, fd: fd, server: isServer, verifyName: verifyName) }
            }
        } catch {
            return apply(.fatalFailure(error.wireError))
        }
        switch session {
        case .success(let tls): channel.tls = tls
        case .failure(let error): return apply(.fatalFailure(error))
        }
        apply(.transportConnected)
        if let limit = parameters.tls?.handshakeTimeout {
            arm(deadline: limit) { [weak self] in self?.apply(.fatalFailure(.timedOut(.tlsHandshake, seconds: limit))) }
        }
        stepHandshake()
    }

    func stepHandshake() {
        guard let channel, let tls = channel.tls else { return }
        switch tls.handshake() {
        case .done: establish()
        case .wantRead: channel.armWrite(false); channel.armRead(true)
        case .wantWrite: channel.armRead(false); channel.armWrite(true)
        case .closed: apply(.fatalFailure(.tls(reason: "handshake: the peer closed the connection")))
        case .failed(let e): apply(.fatalFailure(e))
        }
    }

    func establish() {
        disarmDeadline()
        let metadata = channel?.tls?.metadata
        if let block = parameters.tls?.verifyBlock, let tls = channel?.tls, let metadata {
            let trust = tls.trust(in: metadata.peerCertificateChain)
            guard block.decide(trust) else {
                return apply(.fatalFailure(.tls(reason: "the verify block rejected the peer's certificate (OpenSSL's verdict: \(trust.verificationError ?? "verified"))")))
            }
        }
        negotiated = metadata
        channel?.armWrite(false)
        channel?.armRead(false)
        apply(.established)
        pathEstablished()
        service()
    }
}
