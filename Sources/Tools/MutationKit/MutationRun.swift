// A whole run: check the layers, generate and sample mutants, prepare the scratch copy and its
// baseline, judge each mutant (or reuse a verdict on record), report. Returns the exit status:
// 0, 1 below --min-score, 2 when the run cannot judge (a file in no layer, a tree that fails).

import Foundation

public struct RunOptions: Sendable {
    public var seed = 1, sample = 0
    public var layers: [String] = []
    public var minScore = 0.0
    public var list = false, resume = false, noNew = false, reportOnly = false
    public var rejudge: [String] = []
    public var scratch = ".scratch/mutation"
    public var shard = 0, shards = 1
    public var resultsFrom: [String] = []
    public var timeoutScale = 3.0
    /// Judge in the working tree itself (ScratchTree.requireClean) instead of a scratch copy.
    public var inPlace = false
    public init() {}
}

/// One line of results.jsonl: the verdict on a mutant, and the tree it was judged on.
struct ResultEntry: Codable {
    let id: String, layer: String, outcome: String, detail: String
    let seconds: Double, tree: String
    let was: String?
}

public struct MutationRun {
    let root: String
    let options: RunOptions

    public init(root: String, options: RunOptions) { self.root = root; self.options = options }

    public func run() throws -> Int32 {
        let uncovered = LayerCoverage.uncovered(root: root)
        for path in uncovered {
            Log.say("\(path) belongs to no layer: add it to one in Sources/Tools/MutationKit/Layers.swift (Layer.all), "
                + "or to Layer.unlayered with the reason no check can judge its mutants")
        }
        if !uncovered.isEmpty { return 2 }
        let layers = options.layers.isEmpty ? Layer.all.filter(\.sampled) : Layer.all.filter { options.layers.contains($0.name) }
        var source = MutantSource(root: root)
        let byLayer = try layers.map { try source.mutants(of: $0) }
        let total = byLayer.reduce(0) { $0 + $1.count }
        var chosen = Sampling.pick(byLayer, count: options.sample > 0 ? options.sample : total, seed: options.seed)
        if !options.reportOnly {
            chosen = chosen.enumerated().filter { $0.offset % options.shards == options.shard }.map(\.element)
        }
        Log.say("\(total) mutants over \(layers.count) layers; judging \(chosen.count) (seed \(options.seed))")
        if options.list {
            for m in chosen { print(m.layer.name.padding(toLength: max(10, m.layer.name.count), withPad: " ", startingAt: 0) + " " + m.ident + "\n" + m.diff) }
            return 0
        }
        let scratch = options.scratch.hasPrefix("/") ? options.scratch : root + "/" + options.scratch
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let equivalent = try Self.equivalent(root: root)
        var earlier: [String: ResultEntry] = [:]
        if options.resume {
            for folder in options.resultsFrom + [scratch] {
                earlier.merge(Self.results(folder + "/results.jsonl")) { $1 }
            }
        }
        if options.reportOnly {
            let verdicts = chosen.map { m -> Verdict in
                if let reason = equivalent[m.key] { return Verdict(mutant: m, outcome: .equivalent, detail: reason, seconds: 0) }
                if let e = earlier[m.key] { return Verdict(mutant: m, outcome: Outcome(rawValue: e.outcome) ?? .notJudged, detail: e.detail, seconds: e.seconds) }
                return Verdict(mutant: m, outcome: .notJudged, detail: "", seconds: 0)
            }
            return finish(verdicts, seconds: 0, folder: scratch)
        }
        return try judgeAll(chosen, scratch: scratch, equivalent: equivalent, earlier: earlier)
    }

    private func judgeAll(_ chosen: [Mutant], scratch: String, equivalent: [String: String],
                          earlier: [String: ResultEntry]) throws -> Int32 {
        let tree = options.inPlace ? root : scratch + "/tree", logfile = scratch + "/steps.log", resultsPath = scratch + "/results.jsonl"
        _ = FileManager.default.createFile(atPath: logfile, contents: Data())
        if !options.resume { _ = FileManager.default.createFile(atPath: resultsPath, contents: Data()) }
        let treeState = ScratchTree.describe(root: root)
        if options.inPlace {
            if let m = chosen.first(where: { $0.layer.privateDeps }) {
                Log.say("\(m.ident): layer \(m.layer.name) writes into .deps, which the working tree shares: judge it without --in-place")
                return 2
            }
            try ScratchTree.requireClean(root: root)
            Log.say("judging in the working tree itself (--in-place); git undoes each mutant there")
        } else {
            Log.say("preparing the scratch copy and its baseline build (incremental after the first run)")
            try ScratchTree.prepare(root: root, tree: tree, privateDeps: chosen.contains { $0.layer.privateDeps })
        }
        let runner = StepRunner(directory: tree, logfile: logfile)
        var clock = Date()
        guard runner.run("bash scripts/setup.sh >/dev/null && swift build --build-tests", limit: 3600) == .ok else {
            Log.say("the unmutated tree does not build; see \(logfile)")
            return 2
        }
        let buildSeconds = Date().timeIntervalSince(clock)
        clock = Date()
        let quickFilters = Set(chosen.map(\.layer.quick)).sorted()
        for filter in quickFilters where runner.run("swift test --skip-build --filter '\(filter)'", limit: 1800) != .ok {
            Log.say("the unmutated tree fails its suites (\(filter)); see \(logfile)")
            return 2
        }
        let quickSeconds = Date().timeIntervalSince(clock) / Double(max(1, quickFilters.count))
        var limits = Limits(build: max(300, options.timeoutScale * buildSeconds), quick: max(60, options.timeoutScale * quickSeconds))
        if chosen.contains(where: { $0.layer.regenerates($0.path) }) {
            clock = Date()
            guard runner.run(Judge.regeneration, limit: 1800) == .ok else {
                Log.say("the unmutated tree does not regenerate (make proto); see \(logfile)")
                return 2
            }
            limits.generate = max(60, options.timeoutScale * Date().timeIntervalSince(clock))
        }
        Log.say("baseline: build \(Int(buildSeconds)) s, quick suites \(Int(quickSeconds)) s; limits build \(Int(limits.build)) s, "
            + "quick \(Int(limits.quick)) s" + (limits.generate.map { ", make proto \(Int($0)) s" } ?? "")
            + " (all suites: measured when a mutant first reaches them)")
        let judge = Judge(tree: tree, runner: runner)
        var verdicts: [Verdict] = []
        let started = Date()
        for (index, m) in chosen.enumerated() {
            let t0 = Date(), counter = "[\(index + 1)/\(chosen.count)] \(m.layer.name) \(m.path):\(m.line)"
            let before = earlier[m.key]
            var outcome: Outcome, detail: String
            if let reason = equivalent[m.key] {
                (outcome, detail) = (.equivalent, reason)
            } else if let before, !options.rejudge.contains(before.outcome) {
                verdicts.append(Verdict(mutant: m, outcome: Outcome(rawValue: before.outcome) ?? .notJudged, detail: before.detail, seconds: before.seconds))
                Log.say("\(counter) \(before.outcome) (judged before, \(before.tree))")
                continue
            } else if before == nil && options.noNew {
                verdicts.append(Verdict(mutant: m, outcome: .notJudged, detail: "", seconds: 0))
                continue
            } else {
                runner.append("\n===== mutant \(m.ident)\n\(m.diff)")
                do {
                    (outcome, detail) = try judge.judge(m, limits)
                } catch is NeedsFullBaseline {
                    guard let full = timeAllSuites(runner) else {
                        Log.say("the unmutated tree fails its suites; see \(logfile)")
                        return 2
                    }
                    limits.full = full
                    (outcome, detail) = try judge.judge(m, limits)
                }
            }
            let seconds = Date().timeIntervalSince(t0)
            verdicts.append(Verdict(mutant: m, outcome: outcome, detail: detail, seconds: seconds))
            let entry = ResultEntry(id: m.ident, layer: m.layer.name, outcome: outcome.rawValue, detail: detail,
                                    seconds: (seconds * 10).rounded() / 10, tree: treeState, was: before?.outcome)
            Self.append(entry, to: resultsPath)
            Log.say("\(counter) \(outcome.rawValue)\(detail.isEmpty ? "" : " (\(detail))")"
                + "\(before.map { " (was \($0.outcome))" } ?? "") in \(Int(seconds.rounded())) s")
            MutationReport.write(verdicts, seed: options.seed, sample: options.sample, seconds: Date().timeIntervalSince(started),
                                 folder: scratch)  // a run cut short still leaves its report
        }
        let status = finish(verdicts, seconds: Date().timeIntervalSince(started), folder: scratch)
        if options.inPlace {
            do { try ScratchTree.requireClean(root: root) } catch {
                Log.say("the working tree is not as it was after judging: \(error)")
                return 2
            }
        }
        return status
    }

    /// Rebuilds the unmutated tree and times every suite on it: the limit for "all suites".
    private func timeAllSuites(_ runner: StepRunner) -> Double? {
        guard runner.run("swift build --build-tests", limit: 3600) == .ok else { return nil }
        let clock = Date()
        guard runner.run("swift test --skip-build", limit: 3600) == .ok else { return nil }
        let seconds = Date().timeIntervalSince(clock)
        let limit = max(120, options.timeoutScale * seconds)
        Log.say("baseline: all suites \(Int(seconds)) s on the unmutated tree; limit \(Int(limit)) s")
        return limit
    }

    /// Writes the report, prints its table, and turns the score into the exit status.
    private func finish(_ verdicts: [Verdict], seconds: Double, folder: String) -> Int32 {
        let report = MutationReport.write(verdicts, seed: options.seed, sample: options.sample, seconds: seconds, folder: folder)
        print(report.table)
        guard let score = report.score else {
            Log.say("no mutant compiled: no score")
            return options.minScore > 0 ? 1 : 0
        }
        if score < options.minScore {
            Log.say("FAILED: score \(String(format: "%.1f", score)) % is below \(String(format: "%.1f", options.minScore)) %")
            return 1
        }
        Log.say("score \(String(format: "%.1f", score)) % (minimum \(String(format: "%.1f", options.minScore)) %)")
        return 0
    }

    /// key -> reason, from scripts/mutation/equivalent.txt (`<id> <reason>` lines; `#` comments).
    static func equivalent(root: String) throws -> [String: String] {
        let path = root + "/scripts/mutation/equivalent.txt"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        return parseEquivalent(text)
    }

    public static func parseEquivalent(_ text: String) -> [String: String] {
        var known: [String: String] = [:]
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let id = line.prefix { $0 != " " }
            known[Mutant.key(of: String(id))] = line.dropFirst(id.count).trimmingCharacters(in: .whitespaces)
        }
        return known
    }

    /// The last verdict per mutant key in a results.jsonl an earlier run appended to.
    static func results(_ path: String) -> [String: ResultEntry] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var found: [String: ResultEntry] = [:]
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            if let entry = try? JSONDecoder().decode(ResultEntry.self, from: Data(line.utf8)) { found[Mutant.key(of: entry.id)] = entry }
        }
        return found
    }

    static func append(_ entry: ResultEntry, to path: String) {
        guard let data = try? JSONEncoder().encode(entry), let handle = FileHandle(forWritingAtPath: path) else { return }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(data + Data("\n".utf8))
    }
}
