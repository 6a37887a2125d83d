import Dispatch
import Testing
@testable import WireTransport

/// The one lifecycle listeners, advertisements and browsers share: its transition function and
/// what reaches the user's handler.
@Suite("Lifecycle")
struct LifecycleTests {
    private enum Sample: LifecycleState {
        case setup, ready(Int), failed, cancelled
        var phase: LifecyclePhase {
            switch self {
            case .setup: return .setup
            case .ready: return .ready
            case .failed: return .failed
            case .cancelled: return .cancelled
            }
        }
    }

    @Test func theTransitionFunctionAllowsExactlyTheDocumentedMoves() {
        let phases: [LifecyclePhase] = [.setup, .ready, .failed, .cancelled]
        let allowed: Set<String> = ["setup>ready", "setup>failed", "setup>cancelled",
                                    "ready>ready", "ready>failed", "ready>cancelled", "failed>cancelled"]
        for from in phases {
            for to in phases {
                #expect(from.allows(to) == allowed.contains("\(from)>\(to)"), "\(from) -> \(to)")
            }
        }
    }

    @Test func movesReachTheHandlerInOrderAndRefusedOnesDoNot() {
        let queue = DispatchQueue(label: "lifecycle.test")
        let seen = Recorder<Sample>()
        var lifecycle = Lifecycle<Sample>()
        lifecycle.stateUpdateHandler = { seen.append($0) }
        let outcomes = [lifecycle.start(on: queue), !lifecycle.start(on: queue),  // a second start changes nothing
                        lifecycle.move(to: .ready(1)),
                        lifecycle.move(to: .ready(2)),         // ready again, with a new value
                        lifecycle.move(to: .failed),
                        !lifecycle.move(to: .ready(3)),        // nothing but cancelled follows failed
                        lifecycle.move(to: .cancelled),
                        !lifecycle.move(to: .cancelled),       // a second cancel is refused
                        !lifecycle.move(to: .failed)]          // a late failure after cancel is refused
        #expect(outcomes == Array(repeating: true, count: outcomes.count), "\(outcomes)")
        #expect(seen.wait { $0.count == 4 })
        queue.sync {}
        #expect(seen.values == [.ready(1), .ready(2), .failed, .cancelled])
        #expect(lifecycle.state == .cancelled)
    }

    @Test func cancellingDropsTheHandlerAndOneSetLaterIsDropped() {
        var lifecycle = Lifecycle<Sample>()
        lifecycle.stateUpdateHandler = { _ in }
        let started = lifecycle.start(on: DispatchQueue(label: "lifecycle.test"))
        #expect(started)
        lifecycle.move(to: .cancelled)
        #expect(lifecycle.stateUpdateHandler == nil)
        lifecycle.stateUpdateHandler = { _ in }
        #expect(lifecycle.stateUpdateHandler == nil)
    }

    @Test func releasedWhileStartedTheHandlerHearsCancelledOnce() {
        let queue = DispatchQueue(label: "lifecycle.test")
        let seen = Recorder<Sample>()
        var started = Lifecycle<Sample>()
        started.stateUpdateHandler = { seen.append($0) }
        let startedFirst = started.start(on: queue)
        started.deliverReleased()
        var cancelled = Lifecycle<Sample>()
        cancelled.stateUpdateHandler = { seen.append($0) }
        let startedSecond = cancelled.start(on: queue)
        #expect(startedFirst && startedSecond)
        cancelled.move(to: .cancelled)
        cancelled.deliverReleased()
        queue.sync {}
        #expect(seen.values == [.cancelled, .cancelled], "one from the released one, one from the cancel; none from the release after it")
    }
}
