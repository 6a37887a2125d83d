// The error every step of `wireproof conformance` reports.

/// Why `wireproof conformance` stopped before or between the suite runs: printed as
/// "conformance: <description>" (one line, naming what failed) with exit status 1. A suite that
/// runs and fails is not an error: it is an outcome (`ConformanceOutcome`).
struct ConformanceError: Error, CustomStringConvertible, Equatable {
    let description: String
    init(_ description: String) { self.description = description }
}
