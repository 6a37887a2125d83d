// The libFuzzer targets of Fuzz/ that `wireproof fuzz` runs.

import ArgumentParser

/// A fuzz target campaigns, replays and triage run. Invariant: each case is an executable product
/// of Fuzz/Package.swift; `decode_c` is not one of them (a benchmark baseline that only `build` makes
/// and `wireproof fuzz rate` runs).
enum FuzzTarget: String, CaseIterable, ExpressibleByArgument, Sendable {
    case decode, differential, structure

    /// Every product `build` makes, in build order: the targets, then the benchmark baseline.
    static let builtProducts = allCases.map(\.rawValue) + ["decode_c"]
}
