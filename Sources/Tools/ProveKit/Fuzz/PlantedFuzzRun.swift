// `wireproof fuzz planted`: does fuzzing find bugs? Re-introduces bugs of the classes nanopb's
// security advisories describe (scripts/mutation/plants.txt, applied by MutationKit) into a
// scratch copy of the tree, never this one, one at a time, and measures each fuzz target's time to
// the first crash: RUNS runs (libFuzzer seeds 1...RUNS), each pinned to core 0 for at most LIMIT
// seconds. Prints a table (docs/fuzzing.md has the figures).

import Foundation
import MutationKit
import ProcessSupport

/// What a planted-bug measurement runs.
struct PlantedFuzzSettings: Equatable {
    var runs = 3
    var limit = 60
    var targets: [FuzzTarget] = [.decode, .differential]
    /// The fuzz plants of plants.txt, in the order a run without names takes them.
    static let defaultBugs = ["no-length-bound", "varint-off-by-one", "read-off-by-one", "submsg-leak", "invalid-free", "no-nul-terminator"]
    var bugs = defaultBugs
}

/// One measurement. Ownership: ROOT/.scratch/planted/ belongs to it: `tree/` the copy (its
/// git-ignored Fuzz/.build kept between runs, so builds stay incremental), `runs/<bug>/` each
/// product's build log and `<target>/<seed>/` each run's log, corpus and artifacts.
struct PlantedFuzzRun {
    let root: String
    let settings: PlantedFuzzSettings

    var tree: String { root + "/.scratch/planted/tree" }
    var runs: String { root + "/.scratch/planted/runs" }

    /// Runs every bug on every target; returns the table's rows (header first).
    func run() throws -> [String] {
        let plants = Plants.parse((try? String(contentsOfFile: root + "/scripts/mutation/plants.txt", encoding: .utf8)) ?? "")
        let chosen = try settings.bugs.map { bug in
            guard let plant = plants.first(where: { $0.name == bug }) else { throw FuzzError("unknown plant '\(bug)' (scripts/mutation/plants.txt)") }
            return plant
        }
        // The differential's SwiftProtobuf party is generated (git-ignored) code: made here, copied there.
        if settings.targets.contains(.differential) { try FuzzSchemaFiles(workspace: FuzzWorkspace(root: root)).generateSwiftProtobufParty() }
        printOut("fuzz-planted: copying the working tree to \(tree)")
        try ScratchTree.prepare(root: root, tree: tree, also: ["Fuzz/Sources/SwiftProtobufSchema"])
        let setup = try ChildProcess.run("/bin/bash", [tree + "/scripts/setup.sh"], in: tree)
        guard setup.status == 0 else {
            let last = setup.stderrText.split(separator: "\n").last.map(String.init) ?? ""
            throw FuzzError("scripts/setup.sh failed in \(tree) (exit \(setup.status)): \(last.suffix(200))")
        }
        let workspace = FuzzWorkspace(root: tree)
        let build = FuzzBuild(workspace: workspace, environment: try FuzzEnvironment.read(root: tree))
        var rows = [PlantedFuzzTable.header]
        for plant in chosen {
            try Plants.unplant(in: tree)
            try Plants.apply(plant, in: tree)
            let bin = try buildTargets(build, bug: plant.name)
            try FuzzSchemaFiles(workspace: workspace).writeDescriptorSet(to: bin + "/wireproof.pb")
            for target in settings.targets {
                let results = try (1...settings.runs).map { seed in try fuzz(target, bin: bin, bug: plant.name, seed: seed, build: build) }
                rows.append(PlantedFuzzTable.row(bug: plant.name, target: target.rawValue, results: results, limit: settings.limit))
            }
        }
        try Plants.unplant(in: tree)
        return rows
    }

    /// Builds the targets in the copy (with the bug planted); returns the folder of the binaries.
    func buildTargets(_ build: FuzzBuild, bug: String) throws -> String {
        let names = settings.targets.map(\.rawValue)
        printOut("fuzz-planted: \(bug): building \(names.joined(separator: " "))")
        try FileManager.default.createDirectory(atPath: "\(runs)/\(bug)", withIntermediateDirectories: true)
        for product in names {
            let log = "\(runs)/\(bug)/build-\(product).log"
            let pid = try ChildProcess.launchIntoLog(build.swift, ["build"] + build.environment.buildFlags + ["--product", product], log: log,
                                                     in: build.workspace.package, environment: build.environment.exported)
            guard ChildProcess.waitForExit(pid) == 0 else { throw FuzzError("\(product) does not build with \(bug) planted (see \(log))") }
        }
        return try build.binDirectory()
    }

    /// One run of `target` from the seeds into a fresh corpus, pinned to core 0; prints its time.
    func fuzz(_ target: FuzzTarget, bin: String, bug: String, seed: Int, build: FuzzBuild) throws -> PlantedFuzzResult {
        let work = "\(runs)/\(bug)/\(target.rawValue)/\(seed)"
        let fm = FileManager.default
        _ = try? fm.removeItem(atPath: work)
        try fm.createDirectory(atPath: work + "/corpus", withIntermediateDirectories: true)
        let arguments = ["-c", "0", "\(bin)/\(target.rawValue)", "-seed=\(seed)", "-max_total_time=\(settings.limit)",
                         "-dict=\(build.workspace.dictionary)", "-artifact_prefix=\(work)/", "-max_len=4096", "-timeout=10",
                         work + "/corpus", build.workspace.seeds]
        let start = Date()
        let pid = try ChildProcess.launchIntoLog("/usr/bin/taskset", arguments, log: work + "/log", environment: build.environment.exported)
        _ = FuzzCampaign.wait(pid, until: start.addingTimeInterval(Double(settings.limit) * 2 + 600), following: nil)
        let elapsed = Date().timeIntervalSince(start)
        let found = try fm.contentsOfDirectory(atPath: work).contains(where: PlantedFuzzTable.isArtifact)
        let report = found ? PlantedFuzzTable.report(in: String(decoding: try ChildProcess.readFile(work + "/log"), as: UTF8.self)) : nil
        let result = PlantedFuzzResult(seconds: elapsed, found: found, report: report)
        printOut("  \(target.rawValue) seed \(seed): \(PlantedFuzzTable.cell(result, limit: settings.limit)) s \(report ?? "")")
        return result
    }
}
