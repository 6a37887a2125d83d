import Dispatch

/// Where an object that is started and cancelled stands: the part of a listener's, an
/// advertisement's and a browser's state that their one transition function judges.
public enum LifecyclePhase: Sendable, Equatable {
    case setup, ready, failed, cancelled

    /// The transition function shared by listeners, advertisements and browsers: setup moves to
    /// ready, failed or cancelled; ready to ready again (a new value, such as an advertisement's
    /// name after a conflict), failed or cancelled; failed only to cancelled; nothing leaves
    /// cancelled.
    func allows(_ next: LifecyclePhase) -> Bool {
        switch (self, next) {
        case (.setup, .ready), (.setup, .failed), (.setup, .cancelled): return true
        case (.ready, .ready), (.ready, .failed), (.ready, .cancelled): return true
        case (.failed, .cancelled): return true
        default: return false
        }
    }
}

/// A state a `Lifecycle` holds: `ListenerState`, `AdvertisementState`, `BrowserState`. Each maps
/// its own cases to a phase in a four-line switch; the three look alike on purpose (their cases
/// carry different payloads, public API that a shared generic type would change).
public protocol LifecycleState: Sendable, Equatable {
    static var setup: Self { get }
    static var cancelled: Self { get }
    var phase: LifecyclePhase { get }
}

/// One object's lifecycle: its state, the handler its user set and the queue that handler runs on.
///
/// Not thread-safe by itself: the owner keeps it on its private serial queue and calls it only
/// there. Every state change goes through `move(to:)`, which refuses what `LifecyclePhase.allows`
/// refuses (a second cancel, a failure reported after cancellation) and delivers the rest, in
/// order, on the user's queue. Cancellation drops the handler, and a handler set afterwards is
/// dropped too: it could never run, and kept it would hold whatever it captures for ever.
package struct Lifecycle<State: LifecycleState> {
    package private(set) var state: State = .setup
    private var handler: (@Sendable (State) -> Void)?
    private var userQueue: DispatchQueue?

    package init() {}

    package var stateUpdateHandler: (@Sendable (State) -> Void)? {
        get { handler }
        set { handler = state.phase == .cancelled ? nil : newValue }
    }

    /// The queue the user's handlers run on, once started.
    package var queue: DispatchQueue? { userQueue }

    /// Records the user's queue when still in setup; false (nothing changes) on a second start.
    package mutating func start(on queue: DispatchQueue) -> Bool {
        guard state.phase == .setup, userQueue == nil else { return false }
        userQueue = queue
        return true
    }

    /// Moves to `next` if the transition function allows it and tells the handler; false, with
    /// nothing changed or delivered, if not.
    @discardableResult
    package mutating func move(to next: State) -> Bool {
        guard state.phase.allows(next.phase) else { return false }
        state = next
        if let handler, let userQueue { userQueue.async { handler(next) } }
        if next.phase == .cancelled { handler = nil }
        return true
    }

    /// For the owner's deinit: the handler's last call is `cancelled`, as after a cancel, unless
    /// it was cancelled already.
    package func deliverReleased() {
        guard state.phase != .cancelled, let handler, let userQueue else { return }
        userQueue.async { handler(.cancelled) }
    }
}
