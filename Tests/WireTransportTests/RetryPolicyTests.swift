import Testing
@testable import WireTransport

/// The back-off between connect attempts: doubling from `initialDelay`, capped at `maximumDelay`.
@Suite struct RetryPolicyTests {
    @Test func theDefaultPolicyStartsAtATenthOfASecondCapsAtFiveAndNeverGivesUp() {
        let policy = RetryPolicy()
        #expect(policy.initialDelay == 0.1 && policy.maximumDelay == 5 && policy.maximumAttempts == nil)
        #expect(policy == RetryPolicy(initialDelay: 0.1, maximumDelay: 5, maximumAttempts: nil))
    }

    @Test func delaysDoubleAfterEachAttemptUntilTheCap() {
        let policy = RetryPolicy(initialDelay: 0.25, maximumDelay: 1.5)
        // Attempt 0 (none made yet) and 1 wait the initial delay; then 0.5, 1.0, and the cap.
        let delays = (0 ... 6).map { policy.delay(afterAttempt: $0) }
        #expect(delays == [0.25, 0.25, 0.5, 1.0, 1.5, 1.5, 1.5], "\(delays)")
    }
}
