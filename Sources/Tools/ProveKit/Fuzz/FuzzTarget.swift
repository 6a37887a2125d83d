// The libFuzzer targets of Fuzz/ that `wireproof fuzz` runs, and the error every fuzz workflow reports.

import ArgumentParser

/// A fuzz target campaigns, replays and triage run. Invariant: each case is an executable product
/// of Fuzz/Package.swift; `decode_c` is not one of them (a benchmark baseline that only `build` makes
/// and scripts/fuzz-rate.sh runs).
enum FuzzTarget: String, CaseIterable, ExpressibleByArgument, Sendable {
    case decode, differential, structure

    /// Every product `build` makes, in build order: the targets, then the benchmark baseline.
    static let builtProducts = allCases.map(\.rawValue) + ["decode_c"]
}

/// Why a fuzz workflow stopped: printed as "fuzz: <description>" and exit status 1.
struct FuzzError: Error, CustomStringConvertible, Equatable {
    let description: String
    init(_ description: String) { self.description = description }
}
