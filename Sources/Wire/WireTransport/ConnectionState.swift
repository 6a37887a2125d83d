/// A connection's lifecycle, as the state handler sees it.
///
///     setup ──start──▶ preparing ──established──▶ ready
///                        │   ▲                      │
///          recoverable,  │   │ retry (back-off),    │ fatal
///     path unsatisfied   ▼   │ path satisfied       ▼
///                       waiting ─────fatal──────▶ failed
///     (waiting ──path unsatisfied──▶ waiting: the path error replaces the connect error)
///     any state but cancelled ──cancel──▶ cancelled (cancel on cancelled: no change)
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    case setup
    case preparing
    case ready
    /// Cannot connect now: refused or unreachable (retrying after a back-off delay), or no usable
    /// route to the peer (`WireError.pathUnsatisfied`: retrying as soon as the path comes back).
    case waiting(WireError)
    /// Cannot recover (TLS verification, unresolvable name, I/O error on an established connection).
    case failed(WireError)
    case cancelled

    public var description: String {
        switch self {
        case .setup: return "setup"
        case .preparing: return "preparing"
        case .ready: return "ready"
        case .waiting(let e): return "waiting(\(e))"
        case .failed(let e): return "failed(\(e))"
        case .cancelled: return "cancelled"
        }
    }

    /// No event but `cancel` leaves a terminal state.
    public var isTerminal: Bool {
        switch self { case .failed, .cancelled: return true; default: return false }
    }
}

/// What happened to a connection; the only input of `ConnectionState.applying(_:)`.
enum ConnectionEvent: CustomStringConvertible {
    case start
    case established
    case recoverableFailure(WireError)
    case retry
    case fatalFailure(WireError)
    case cancel
    /// TCP is up and the TLS handshake starts: preparing stays preparing (internal step only).
    case transportConnected
    /// A service endpoint resolved to addresses; the connect race starts (internal step only).
    case serviceResolved
    /// No usable route to the peer: an attempt in progress is abandoned (it is not counted) and
    /// the connection waits for the path instead of for a back-off timer.
    case pathUnsatisfied(WireError)
    /// The path came back (or changed) while waiting: retry at once.
    case pathSatisfied

    var description: String {
        switch self {
        case .start: return "start"
        case .established: return "established"
        case .recoverableFailure(let e): return "recoverableFailure(\(e))"
        case .retry: return "retry"
        case .fatalFailure(let e): return "fatalFailure(\(e))"
        case .cancel: return "cancel"
        case .transportConnected: return "transportConnected"
        case .serviceResolved: return "serviceResolved"
        case .pathUnsatisfied(let e): return "pathUnsatisfied(\(e))"
        case .pathSatisfied: return "pathSatisfied"
        }
    }
}

extension ConnectionState {
    /// The one transition function: the next state for `event`, `nil` for a legal event that
    /// changes nothing (cancel after cancel), and a trap for every pair not listed, since reaching
    /// one means the connection's own bookkeeping is wrong.
    func applying(_ event: ConnectionEvent) -> ConnectionState? {
        switch (self, event) {
        case (.setup, .start): return .preparing
        case (.preparing, .established): return .ready
        case (.preparing, .recoverableFailure(let e)): return .waiting(e)
        case (.waiting, .retry), (.waiting, .pathSatisfied): return .preparing
        case (.preparing, .pathUnsatisfied(let e)), (.waiting, .pathUnsatisfied(let e)): return .waiting(e)
        case (.preparing, .fatalFailure(let e)), (.ready, .fatalFailure(let e)), (.waiting, .fatalFailure(let e)):
            return .failed(e)
        case (.setup, .cancel), (.preparing, .cancel), (.ready, .cancel), (.waiting, .cancel), (.failed, .cancel):
            return .cancelled
        case (.cancelled, .cancel): return nil
        default:
            preconditionFailure("WireTransport: illegal connection transition \(self) on \(event)")
        }
    }
}

/// What a preparing connection is doing; not part of the public state.
enum PreparingStep: Sendable, Equatable {
    /// A service endpoint is being resolved to addresses (`Connection(to:using:)`); each preparing
    /// of such a connection starts here.
    case resolvingService
    /// Racing TCP connects (outbound), or about to set up TLS on an accepted socket.
    case connecting
    /// TCP is up; the TLS handshake runs.
    case handshaking
}

/// A connection's one state machine: the public `ConnectionState`, plus, while preparing, the
/// step in progress. It changes only through `applying(_:firstStep:)`, which checks every pair
/// against the public transition function and adds two internal pairs (resolvingService to
/// connecting, connecting to handshaking).
enum ConnectionStage: Sendable, Equatable, CustomStringConvertible {
    case setup
    case preparing(PreparingStep)
    case ready
    case waiting(WireError)
    case failed(WireError)
    case cancelled

    /// What the state handler sees.
    var state: ConnectionState {
        switch self {
        case .setup: return .setup
        case .preparing: return .preparing
        case .ready: return .ready
        case .waiting(let e): return .waiting(e)
        case .failed(let e): return .failed(e)
        case .cancelled: return .cancelled
        }
    }

    var description: String {
        switch self {
        case .preparing(let step): return "preparing(\(step))"
        default: return state.description
        }
    }

    /// The next stage for `event` (nil: legal, no change); traps on a pair no table allows.
    /// Entering preparing lands on `firstStep`: `.resolvingService` for a service endpoint,
    /// `.connecting` otherwise.
    func applying(_ event: ConnectionEvent, firstStep: PreparingStep = .connecting) -> ConnectionStage? {
        precondition(firstStep != .handshaking, "WireTransport: preparing never starts with the handshake")
        if case .serviceResolved = event {
            guard self == .preparing(.resolvingService) else {
                preconditionFailure("WireTransport: illegal connection transition \(self) on \(event)")
            }
            return .preparing(.connecting)
        }
        if case .transportConnected = event {
            guard self == .preparing(.connecting) else {
                preconditionFailure("WireTransport: illegal connection transition \(self) on \(event)")
            }
            return .preparing(.handshaking)
        }
        guard let next = state.applying(event) else { return nil }
        switch next {
        case .setup: preconditionFailure("WireTransport: no event leads back to setup")
        case .preparing: return .preparing(firstStep)
        case .ready: return .ready
        case .waiting(let e): return .waiting(e)
        case .failed(let e): return .failed(e)
        case .cancelled: return .cancelled
        }
    }
}

/// A listener's lifecycle.
public enum ListenerState: Sendable, Equatable, CustomStringConvertible {
    case setup
    case ready
    case failed(WireError)
    case cancelled

    public var description: String {
        switch self {
        case .setup: return "setup"
        case .ready: return "ready"
        case .failed(let e): return "failed(\(e))"
        case .cancelled: return "cancelled"
        }
    }
}

extension ListenerState: LifecycleState {
    public var phase: LifecyclePhase {
        switch self {
        case .setup: return .setup
        case .ready: return .ready
        case .failed: return .failed
        case .cancelled: return .cancelled
        }
    }
}
