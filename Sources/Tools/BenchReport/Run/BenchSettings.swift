// The knobs of `make bench` (`wirebench run`), read once from the environment, and the paths every
// step shares. Nothing here runs a process, so the plan a set of knobs makes is testable alone.

import Foundation

/// What one `make bench` run measures and where it builds, from the environment:
///   BENCH_ROUNDS (101) and BENCH_BATCH_MS (4): the wall-time rounds of CodecBench;
///   BENCH_CALLGRIND_ITERATIONS (300; 0 skips valgrind and the ratios);
///   BENCH_TMP (/tmp/wp-bench): build folders and raw outputs;
///   BENCH_DOC (docs/measurements.md; set and empty: the bench section is not written);
///   BENCH_CLEAN=1: rebuild from nothing (Swift skips rewriting an object whose IR did not change,
///     so build flags changed by hand need it);
///   BENCH_ONE_TYPE (Rtm_StreamChunk): the message of the SizeOne probes;
///   BENCH_FUZZ=0 / BENCH_PEAK=0: skip the fuzz-rate / peak-memory legs;
///   SWIFT (swift): the driver; WIREPROOF_TOOL: a prebuilt `wireproof` (else the tree's debug build).
public struct BenchSettings: Equatable, Sendable {
    public static let defaultRounds = 101
    public static let defaultBatchMilliseconds = 4
    public static let defaultCallgrindIterations = 300

    public var rounds: Int
    public var batchMilliseconds: Int
    /// Iterations of each callgrind loop; 0 when valgrind is skipped (by the knob or its absence).
    public var callgrindIterations: Int
    /// The knob as given, before valgrind's absence zeroes `callgrindIterations`: the reproduce line shows it.
    public var requestedCallgrindIterations: Int
    public var temporary: String
    /// The document whose bench section the summary rewrites; nil: print only.
    public var document: String?
    public var clean: Bool
    public var oneType: String
    public var measureFuzzRate: Bool
    public var measurePeakMemory: Bool
    public var swift: String
    public var wireproofTool: String?

    /// The settings `environment` asks for; `valgrindAvailable` false turns the callgrind legs off.
    public init(environment: [String: String], valgrindAvailable: Bool = true) throws(BenchRunError) {
        func number(_ name: String, _ fallback: Int) throws(BenchRunError) -> Int {
            guard let text = environment[name] else { return fallback }
            guard let value = Int(text), value >= 0 else { throw .badKnob(name: name, value: text) }
            return value
        }
        rounds = try number("BENCH_ROUNDS", Self.defaultRounds)
        batchMilliseconds = try number("BENCH_BATCH_MS", Self.defaultBatchMilliseconds)
        requestedCallgrindIterations = try number("BENCH_CALLGRIND_ITERATIONS", Self.defaultCallgrindIterations)
        callgrindIterations = valgrindAvailable ? requestedCallgrindIterations : 0
        temporary = environment["BENCH_TMP"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/wp-bench"
        let doc = environment["BENCH_DOC"] ?? "docs/measurements.md"
        document = doc.isEmpty ? nil : doc
        clean = environment["BENCH_CLEAN"] == "1"
        oneType = environment["BENCH_ONE_TYPE"].flatMap { $0.isEmpty ? nil : $0 } ?? "Rtm_StreamChunk"
        measureFuzzRate = environment["BENCH_FUZZ"] != "0"
        measurePeakMemory = environment["BENCH_PEAK"] != "0"
        swift = environment["SWIFT"].flatMap { $0.isEmpty ? nil : $0 } ?? "swift"
        wireproofTool = environment["WIREPROOF_TOOL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The command that repeats this run: `make bench`, preceded by the timing knobs that differ
    /// from their defaults (the summary and docs/measurements.md print it).
    public var reproduceCommand: String {
        var knobs: [String] = []
        if rounds != Self.defaultRounds { knobs.append("BENCH_ROUNDS=\(rounds)") }
        if batchMilliseconds != Self.defaultBatchMilliseconds { knobs.append("BENCH_BATCH_MS=\(batchMilliseconds)") }
        if requestedCallgrindIterations != Self.defaultCallgrindIterations {
            knobs.append("BENCH_CALLGRIND_ITERATIONS=\(requestedCallgrindIterations)")
        }
        return (knobs + ["make bench"]).joined(separator: " ")
    }

    /// Iterations of the callgrind loops over the metrics packet (60x the chat packet): a tenth,
    /// at least one. Counts per operation do not depend on it beyond the loops' excluded set-up.
    public var metricsIterations: Int { max(callgrindIterations / 10, 1) }

    /// The run's raw outputs (removed at the start of every run).
    public var out: String { temporary + "/out" }
    public var results: String { out + "/results.json" }
    /// The ratios leg's folder: packet bytes, callgrind listings, `iterations`, fuzz and memory tables.
    public var ratiosWork: String { out + "/ratios" }
    /// The libprotobuf programs, kept across runs while their stamp holds.
    public var cppFolder: String { temporary + "/cpp" }
    /// Scratch path of the debug builds of protogen and wireproof the steps run.
    public var toolScratch: String { temporary + "/protogen" }
    public func releaseBuild(_ configuration: ReleaseConfiguration) -> String {
        temporary + "/build-" + configuration.rawValue
    }
    /// Folders BENCH_CLEAN=1 removes before building.
    public var cleanedFolders: [String] {
        [releaseBuild(.default), releaseBuild(.stripped), toolScratch]
    }
}

/// The two release configurations every probe is built in.
public enum ReleaseConfiguration: String, CaseIterable, Sendable {
    /// `swift build -c release`: SwiftPM links with --gc-sections, but Swift 6.3 on ELF keeps every
    /// public symbol (llvm.used, SHF_GNU_RETAIN), and C targets get no per-function sections.
    case `default`
    /// Full dead strip: public symbols internalized at link (the executable is the whole link unit),
    /// per-function sections for Swift (internalizing drops the ones the retain flag forced) and for
    /// C (nanopb and the generated descriptors per symbol).
    case stripped

    /// Flags added to `swift build -c release`.
    public var buildFlags: [String] {
        switch self {
        case .default: return []
        case .stripped:
            return ["-Xswiftc", "-Xfrontend", "-Xswiftc", "-internalize-at-link",
                    "-Xswiftc", "-Xfrontend", "-Xswiftc", "-function-sections",
                    "-Xcc", "-ffunction-sections", "-Xcc", "-fdata-sections"]
        }
    }
}
