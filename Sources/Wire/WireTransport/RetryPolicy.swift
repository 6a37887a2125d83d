import Foundation

/// How a connection retries a refused or unreachable peer: delays double from `initialDelay` up to
/// `maximumDelay`; after `maximumAttempts` failed attempts (nil: never) the connection fails.
public struct RetryPolicy: Sendable, Hashable {
    public var initialDelay: Double
    public var maximumDelay: Double
    public var maximumAttempts: Int?

    public init(initialDelay: Double = 0.1, maximumDelay: Double = 5, maximumAttempts: Int? = nil) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    func delay(afterAttempt attempt: Int) -> Double {
        min(maximumDelay, initialDelay * pow(2, Double(max(0, attempt - 1))))
    }
}
