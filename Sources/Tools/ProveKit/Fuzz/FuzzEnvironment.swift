// How every fuzz build is made and run. The flags and exported variables are written once, in
// scripts/fuzz-env.sh (sourced by ClusterFuzzLite's build.sh too),
// and read here by sourcing it; FUZZ_COVERAGE, which it reads, passes through this process's
// environment. FUZZ_JOBS and FUZZ_ARGS shape a campaign.

import Foundation
import ProcessSupport

/// scripts/fuzz-env.sh as sourced in this process's environment.
struct FuzzEnvironment: Sendable, Equatable {
    /// `swift build` flags of every fuzz build (FUZZ_BUILD_FLAGS, as FUZZ_COVERAGE selects them).
    let buildFlags: [String]
    /// What fuzz-env.sh exports, given to every fuzz build and fuzzer run.
    let exported: [String: String]

    /// The variables fuzz-env.sh may export. Invariant: every `export NAME` in it is listed here
    /// (FuzzWorkflowTests checks), or a build or run would go without it.
    static let exportedNames = ["SWIFT_BACKTRACE", "WIREPROOF_FUZZ_RUNTIME_COVERAGE"]

    /// Sources ROOT/scripts/fuzz-env.sh in bash and reads back the flags and exports; throws when it
    /// fails (a FUZZ_COVERAGE other than `all` or `runtime`: its message says so).
    /// `overrides` are set for the script on top of this process's environment (tests choose a
    /// FUZZ_COVERAGE with it).
    static func read(root: String, overrides: [String: String] = [:]) throws -> FuzzEnvironment {
        let printExports = exportedNames.map { #"printf '%s\n' "${\#($0)-}""# }.joined(separator: " && ")
        let result = try ChildProcess.run("/bin/bash", [
            "-c", #". "$0" && printf '%s\n' "${#FUZZ_BUILD_FLAGS[@]}" "${FUZZ_BUILD_FLAGS[@]}" && "# + printExports,
            root + "/scripts/fuzz-env.sh"], environment: overrides)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard result.status == 0, let count = lines.first.flatMap({ Int($0) }), lines.count >= 1 + count + exportedNames.count else {
            throw FuzzError("cannot read scripts/fuzz-env.sh (\(result.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
        var exported: [String: String] = [:]
        for (name, value) in zip(exportedNames, lines[(1 + count)...]) where !value.isEmpty { exported[name] = value }
        return FuzzEnvironment(buildFlags: Array(lines[1...count]), exported: exported)
    }

    /// `executable` and `arguments` as an /usr/bin/env command line that adds the exports and
    /// `extra` (which wins) to the caller's environment, in name order.
    func envCommand(_ executable: String, _ arguments: [String], extra: [String: String] = [:]) -> [String] {
        let variables = exported.merging(extra) { $1 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return variables + [executable] + arguments
    }
}

/// A campaign's settings from the environment: FUZZ_JOBS parallel libFuzzer workers (default 1),
/// FUZZ_ARGS more libFuzzer flags (split at white space, as the shell split them).
struct CampaignSettings: Sendable, Equatable {
    let jobs: Int
    let extraArguments: [String]

    /// Throws for a FUZZ_JOBS that is not a whole number from 1 to 64 (two cores here; 64 bounds
    /// what a typo can start).
    init(environment: [String: String]) throws {
        let jobsText = environment["FUZZ_JOBS"] ?? ""
        if jobsText.isEmpty {
            jobs = 1
        } else {
            guard let value = Int(jobsText), (1...64).contains(value) else {
                throw FuzzError("FUZZ_JOBS must be a whole number from 1 to 64, not '\(jobsText)'")
            }
            jobs = value
        }
        extraArguments = (environment["FUZZ_ARGS"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }
}
