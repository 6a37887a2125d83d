// `wireproof fuzz rate [SECONDS]`: facade vs plain C decode rate under libFuzzer (docs/fuzzing.md,
// "Figures"). The `decode` target in facade-only mode (WIREPROOF_FUZZ_FACADE_ONLY=1: decode,
// re-encode, decode again, compare) against `decode_c` (the same work in C over the same nanopb
// runtime and generated C): same seeds, dictionary, sanitizer (ASan, default options for both) and
// libFuzzer seed, one after the other on one core. Rates are per CPU second (user + sys of the
// fuzzer process), not per wall second: on a shared machine the wall clock mostly measures the
// other processes. Both targets are built with FUZZ_COVERAGE=runtime unless the caller sets it
// (scripts/fuzz-env.sh), so libFuzzer's per-execution work over its counters is nearly the same
// for both and the ratio measures the decoding. `--fixed-only` (FUZZ_RATE_CAMPAIGN=0) skips the
// campaigns and measures only the fixed input set, which `make bench` reads.

import Foundation
import ProcessSupport

/// How a rate measurement runs: flags first, then the environment's knobs (FUZZ_RATE_CORE,
/// FUZZ_RATE_CAMPAIGN=0, REPEAT, FUZZ_COVERAGE), then the defaults.
struct RateSettings: Equatable {
    /// Seconds of each campaign.
    var seconds = 60
    /// The core both fuzzers are pinned to.
    var core = 0
    /// Whether the campaigns run (the fixed input set always does).
    var campaigns = true
    /// How many times the fixed run takes every seed.
    var repeatCount = 200
    /// FUZZ_COVERAGE of the two builds.
    var coverage = "runtime"

    /// The knobs of `environment`; throws for a value that is not a whole number.
    init(environment: [String: String]) throws {
        func number(_ name: String, _ fallback: Int) throws -> Int {
            guard let text = environment[name], !text.isEmpty else { return fallback }
            guard let value = Int(text), value >= 0 else { throw FuzzError("\(name) must be a whole number >= 0, not '\(text)'") }
            return value
        }
        core = try number("FUZZ_RATE_CORE", core)
        repeatCount = try number("REPEAT", repeatCount)
        campaigns = environment["FUZZ_RATE_CAMPAIGN"] != "0"
        if let given = environment["FUZZ_COVERAGE"], !given.isEmpty { coverage = given }
    }
}

/// One measurement over the tree of `workspace`.
struct FuzzRate {
    let workspace: FuzzWorkspace
    let settings: RateSettings
    static let products = ["decode", "decode_c"]

    var work: String { "\(workspace.scratch)/rate/\(settings.coverage)" }

    func run() throws {
        let environment = try FuzzEnvironment.read(root: workspace.root, overrides: ["FUZZ_COVERAGE": settings.coverage])
        let build = FuzzBuild(workspace: workspace, environment: environment)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        // The schema the harness loads.
        try FuzzSchemaFiles(workspace: workspace).writeDescriptorSet(to: work + "/wireproof.pb")
        let exported = environment.exported.merging(["WIREPROOF_DESCRIPTOR_SET": work + "/wireproof.pb"]) { $1 }
        for product in Self.products {
            let log = "\(work)/build-\(product).log"
            let pid = try ChildProcess.launchIntoLog(build.swift, ["build"] + environment.buildFlags + ["--product", product], log: log,
                                                     in: workspace.package, environment: environment.exported)
            guard ChildProcess.waitForExit(pid) == 0 else { throw FuzzError("cannot build \(product) (FUZZ_COVERAGE=\(settings.coverage); see \(log))") }
        }
        let bin = try build.binDirectory()
        let counters = try Self.products.map { product -> String in
            let log = "\(work)/counters-\(product).log"
            _ = try ChildProcess.runIntoLog("\(bin)/\(product)", ["-runs=0"], log: log, environment: exported)
            return "\(product) " + (FuzzRateFigures.counters(in: String(decoding: try ChildProcess.readFile(log), as: UTF8.self)).map(String.init) ?? "?")
        }
        printOut("fuzz-rate: FUZZ_COVERAGE=\(settings.coverage), coverage counters: \(counters.joined(separator: ", "))")
        let facadeOnly = exported.merging(["WIREPROOF_FUZZ_FACADE_ONLY": "1"]) { $1 }
        if settings.campaigns {
            var rates: [Int] = []
            for product in Self.products { rates.append(try campaign(product, bin: bin, environment: facadeOnly)) }
            printOut("fuzz-rate: campaign, facade / plain C exec per CPU s = " + FuzzRateFigures.ratio(Double(rates[0]), Double(rates[1])))
        }
        // The same work on a fixed input set (every seed, REPEAT times each): campaign rates depend
        // on the inputs each campaign happens to explore, this does not.
        let seeds = FuzzWorkspace.files(under: workspace.seeds)
        var fixed: [Double] = []
        for product in Self.products {
            try FileManager.default.createDirectory(atPath: "\(work)/\(product)", withIntermediateDirectories: true)
            let cpu = try pinned(product, bin: bin, ["-runs=\(settings.repeatCount)"] + seeds, log: "\(work)/\(product)/fixed.log",
                                 environment: facadeOnly, limit: 3600)
            printOut("fuzz-rate: \(product): every seed \(settings.repeatCount) times: \(FuzzRateFigures.seconds(cpu)) CPU s")
            fixed.append(cpu)
        }
        printOut(FuzzRateFigures.fixedRatioLine(facadeSeconds: fixed[0], plainCSeconds: fixed[1]))
    }

    /// A campaign of `product` from the seeds into a fresh corpus; prints its figures and returns
    /// its executions per CPU second.
    func campaign(_ product: String, bin: String, environment: [String: String]) throws -> Int {
        let folder = "\(work)/\(product)", corpus = folder + "/corpus"
        _ = try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: true)
        let arguments = ["-seed=1", "-max_total_time=\(settings.seconds)", "-print_final_stats=1", "-dict=\(workspace.dictionary)",
                         "-max_len=4096", "-artifact_prefix=\(folder)/", corpus, workspace.seeds]
        let cpu = try pinned(product, bin: bin, arguments, log: folder + "/log", environment: environment, limit: Double(settings.seconds) * 2 + 600)
        let report = CampaignReport(log: String(decoding: try ChildProcess.readFile(folder + "/log"), as: UTF8.self))
        let rate = FuzzRateFigures.rate(executions: report.executions, cpuSeconds: cpu)
        let sizes = FuzzWorkspace.files(under: corpus).map { Int((try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? 0) }
        printOut("fuzz-rate: \(product): \(report.executions) executions in \(settings.seconds) s (\(FuzzRateFigures.seconds(cpu)) CPU s): "
                 + "\(rate) exec per CPU s, \(report.edges.map(String.init) ?? "?") edges; \(FuzzRateFigures.sizesSummary(sizes))")
        return rate
    }

    /// Runs `product` pinned to the settings' core, its output into `log`, stopped past `limit`
    /// seconds; returns its user + system CPU seconds. Throws when it fails.
    func pinned(_ product: String, bin: String, _ arguments: [String], log: String, environment: [String: String], limit: Double) throws -> Double {
        let before = Self.childrenCPUSeconds()
        let pid = try ChildProcess.launchIntoLog("/usr/bin/taskset", ["-c", "\(settings.core)", "\(bin)/\(product)"] + arguments, log: log,
                                                 environment: environment)
        let status = FuzzCampaign.wait(pid, until: Date().addingTimeInterval(limit), following: nil)
        guard status == 0 else { throw FuzzError("\(product) failed (exit \(status); see \(log))") }
        return Self.childrenCPUSeconds() - before
    }

    /// User + system CPU seconds of every child this process has reaped. Invariant: the fuzzer is
    /// the child itself (env and taskset exec into it) and no other child is reaped meanwhile, so a
    /// difference around one run is that run's CPU time.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
