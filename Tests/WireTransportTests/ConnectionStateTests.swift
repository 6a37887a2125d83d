import Dispatch
import Foundation
import Testing
@testable import WireTransport

@Suite("Connection states")
struct ConnectionStateTests {
    /// `setup` is the state before `start` (as in Network.framework, the handler is not called
    /// for it); the handler then sees every change: preparing, ready, cancelled.
    @Test func connectsToAListenerFromSetupThroughPreparingToReady() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        #expect(server.port != 0, "port 0 reports the bound port")
        let client = Connection(host: "127.0.0.1", port: server.port, using: .tcp)
        #expect(client.currentState == .setup)
        let states = Recorder<ConnectionState>()
        client.stateUpdateHandler = { states.append($0) }
        client.start(queue: DispatchQueue(label: "test.client"))
        #expect(states.waitFor(.ready))
        #expect(states.values.prefix(2) == [.preparing, .ready])
        client.cancel()
        #expect(states.waitFor(.cancelled))
    }

    @Test func refusedPortWaitsThenBecomesReadyWhenAListenerAppears() throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }  // closed below, before the listener takes the port
        let port = refusing.port
        let (client, states) = makeClient(.tcp, port: port)
        defer { client.cancel() }
        let waited = states.wait { $0.contains { if case .waiting(.posix(_, ECONNREFUSED)) = $0 { return true }; return false } }
        #expect(waited, "a refused connect is reported as waiting(ECONNREFUSED), not failed: \(states.values)")
        #expect(!states.values.contains { if case .failed = $0 { return true }; return false })
        refusing.close()
        let server = try TestServer(.tcp, port: port)
        defer { server.stop() }
        #expect(states.waitFor(.ready), "retries with back-off reach the new listener: \(states.values)")
    }

    @Test func retriesStopAfterMaximumAttemptsWithFailed() throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let (client, states) = makeClient(.tcp, port: refusing.port, retry: RetryPolicy(initialDelay: 0.01, maximumDelay: 0.02, maximumAttempts: 3))
        defer { client.cancel() }
        let error = states.waitForFailure()
        #expect(error == .posix(call: "connect", errno: ECONNREFUSED))
        #expect(states.values.filter { if case .waiting = $0 { return true }; return false }.count == 2)
    }

    @Test func unresolvableHostFailsWithoutRetrying() {
        let (client, states) = makeClient(.tcp, port: 9, host: "no-such-host.invalid")
        defer { client.cancel() }
        guard case .resolution? = states.waitForFailure() else {
            Issue.record("expected a resolution failure, got \(states.values)"); return
        }
    }

    @Test func cancelIsTheLastStateAndFailsPendingReceives() throws {
        let server = try TestServer(.tcp)
        defer { server.stop() }
        let (client, states) = makeClient(.tcp, port: server.port)
        #expect(states.waitFor(.ready))
        let pending = Recorder<ReceiveResult>()
        client.receive(minimumIncompleteLength: 1, maximumLength: 10) { pending.append(ReceiveResult(data: $0, isComplete: $1, error: $2)) }
        client.cancel()
        client.cancel()  // a second cancel changes nothing
        #expect(states.waitFor(.cancelled))
        #expect(pending.wait { !$0.isEmpty })
        #expect(pending.values.first?.error == .cancelled)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(states.values.last == .cancelled)
        #expect(states.values.filter { $0 == .cancelled }.count == 1)
    }

    @Test func cancelBeforeStartGoesStraightToCancelled() {
        let connection = Connection(host: "127.0.0.1", port: 1, using: .tcp)
        let states = Recorder<ConnectionState>()
        connection.stateUpdateHandler = { states.append($0) }
        connection.cancel()
        connection.start(queue: DispatchQueue(label: "late"))  // after cancel: nothing happens
        Thread.sleep(forTimeInterval: 0.05)
        #expect(connection.currentState == .cancelled)
        #expect(states.values.isEmpty, "no queue was given, so no callback can run")
    }

    /// The transition table as implemented: every legal (state, event) pair and its result.
    @Test func transitionFunctionAllowsExactlyTheDocumentedPairs() {
        let e = WireError.posix(call: "connect", errno: ECONNREFUSED)
        #expect(ConnectionState.setup.applying(.start) == .preparing)
        #expect(ConnectionState.preparing.applying(.established) == .ready)
        #expect(ConnectionState.preparing.applying(.recoverableFailure(e)) == .waiting(e))
        #expect(ConnectionState.waiting(e).applying(.retry) == .preparing)
        for s in [ConnectionState.preparing, .ready, .waiting(e)] { #expect(s.applying(.fatalFailure(e)) == .failed(e)) }
        for s in [ConnectionState.setup, .preparing, .ready, .waiting(e), .failed(e)] { #expect(s.applying(.cancel) == .cancelled) }
        #expect(ConnectionState.cancelled.applying(.cancel) == nil)
    }

    /// A lost path moves preparing and waiting to waiting (with the path error, replacing a
    /// connect error); a path back moves waiting to preparing. Ready is left alone (viability
    /// is reported beside the state), so a path event there, or before start, traps.
    @Test func pathEventsMoveOnlyPreparingAndWaiting() async {
        let refused = WireError.posix(call: "connect", errno: ECONNREFUSED)
        let noPath = WireError.pathUnsatisfied(reason: "no route to 10.0.0.2: Network is unreachable")
        #expect(ConnectionState.preparing.applying(.pathUnsatisfied(noPath)) == .waiting(noPath))
        #expect(ConnectionState.waiting(refused).applying(.pathUnsatisfied(noPath)) == .waiting(noPath))
        #expect(ConnectionState.waiting(noPath).applying(.pathSatisfied) == .preparing)
        #expect(ConnectionStage.preparing(.handshaking).applying(.pathUnsatisfied(noPath)) == .waiting(noPath))
        #expect(ConnectionStage.waiting(noPath).applying(.pathSatisfied) == .preparing(.connecting))
        #expect(noPath.isRecoverableConnectError)
        await #expect(processExitsWith: .failure) { _ = ConnectionState.ready.applying(.pathUnsatisfied(.pathUnsatisfied(reason: "x"))) }
        await #expect(processExitsWith: .failure) { _ = ConnectionState.ready.applying(.pathSatisfied) }
        await #expect(processExitsWith: .failure) { _ = ConnectionState.setup.applying(.pathSatisfied) }
    }

    /// The connection's one state machine: the public table, plus connecting to handshaking
    /// inside preparing (not reported: the public state stays preparing).
    @Test func stageFollowsThePublicTableAndAddsOnlyTheHandshakeStep() {
        let e = WireError.posix(call: "connect", errno: ECONNREFUSED)
        #expect(ConnectionStage.setup.applying(.start) == .preparing(.connecting))
        #expect(ConnectionStage.preparing(.connecting).applying(.transportConnected) == .preparing(.handshaking))
        #expect(ConnectionStage.preparing(.handshaking).state == .preparing)
        for step in [PreparingStep.connecting, .handshaking] {
            #expect(ConnectionStage.preparing(step).applying(.established) == .ready)
            #expect(ConnectionStage.preparing(step).applying(.fatalFailure(e)) == .failed(e))
        }
        #expect(ConnectionStage.preparing(.connecting).applying(.recoverableFailure(e)) == .waiting(e))
        #expect(ConnectionStage.waiting(e).applying(.retry) == .preparing(.connecting))
        #expect(ConnectionStage.cancelled.applying(.cancel) == nil)
    }

    /// A service endpoint's preparing starts with resolving it, on start and on every retry;
    /// its answer moves on to connecting, and failures and cancel leave as from any step.
    @Test func serviceEndpointStagesResolveBeforeConnecting() {
        let e = WireError.serviceResolution(service: "x._t._tcp.local.", reason: "gone")
        #expect(ConnectionStage.setup.applying(.start, firstStep: .resolvingService) == .preparing(.resolvingService))
        #expect(ConnectionStage.waiting(e).applying(.retry, firstStep: .resolvingService) == .preparing(.resolvingService))
        #expect(ConnectionStage.preparing(.resolvingService).applying(.serviceResolved) == .preparing(.connecting))
        #expect(ConnectionStage.preparing(.resolvingService).state == .preparing)
        #expect(ConnectionStage.preparing(.resolvingService).applying(.recoverableFailure(e)) == .waiting(e))
        #expect(ConnectionStage.preparing(.resolvingService).applying(.fatalFailure(e)) == .failed(e))
        #expect(ConnectionStage.preparing(.resolvingService).applying(.cancel) == .cancelled)
        #expect(e.isRecoverableConnectError)
    }

    @Test func serviceResolvedOutsideResolvingTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = ConnectionStage.preparing(.connecting).applying(.serviceResolved)
        }
        await #expect(processExitsWith: .failure) {
            _ = ConnectionStage.ready.applying(.serviceResolved)
        }
    }

    @Test func handshakeStepOutsideConnectingTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = ConnectionStage.ready.applying(.transportConnected)
        }
        await #expect(processExitsWith: .failure) {
            _ = ConnectionStage.preparing(.handshaking).applying(.transportConnected)
        }
    }

    @Test func illegalTransitionTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = ConnectionState.ready.applying(.start)
        }
    }
}
