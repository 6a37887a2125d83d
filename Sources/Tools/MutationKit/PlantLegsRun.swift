// `wiremutate plant-legs`: shows that every sanitizer leg can fail. Plants one bug at a time in a
// scratch copy of the working tree (never the repository), runs each leg that must report it
// (PlantLegs), and counts the leg as passing the check only when it FAILS WITH THE TOOL'S OWN
// REPORT, not through a test assertion. Each plant is undone before the next; nothing here is
// ever committed. docs/sanitizers.md describes the plants and the results.

import Foundation
import ProcessSupport

/// One run over a list of plants. Ownership: `scratch` belongs to the run: `tree/` is the copy
/// (its own .deps/nanopb, since the `nanopb` plant edits it; its build folders kept between runs so
/// builds stay incremental), `logs/` each leg's log and `summary.txt`.
public struct PlantLegsRun {
    /// The working tree copied (the repository root).
    public let root: String
    public let scratch: String
    /// Each plant with the legs that must report it, in run order.
    public let plan: [(plant: String, legs: [PlantLeg])]
    /// Seconds a leg may take before it is stopped (its whole session) and counted as not caught.
    public var legLimit: Double = 3600
    /// The shell command of a leg; tests put stand-ins for the real legs here.
    public var command: (PlantLeg) -> String = { $0.command }
    /// Where progress lines go.
    public var say: (String) -> Void = { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    public init(root: String, scratch: String, plan: [(plant: String, legs: [PlantLeg])]) {
        self.root = root; self.scratch = scratch; self.plan = plan
    }

    public var tree: String { scratch + "/tree" }
    public var logs: String { scratch + "/logs" }

    /// Runs every leg of every plant; returns the summary rows and whether every leg caught its
    /// plant. Throws when the copy cannot be made or refreshed, or a plant is not in plants.txt.
    public func run() throws -> (rows: [String], allCaught: Bool) {
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        say("plant-legs: copying the working tree to \(tree) (its own .build folders are kept between runs)")
        try ScratchTree.prepare(root: root, tree: tree, privateDeps: true)
        let known = Plants.parse((try? String(contentsOfFile: root + "/scripts/mutation/plants.txt", encoding: .utf8)) ?? "")
        var rows: [String] = [], allCaught = true
        for (name, legs) in plan {
            guard let plant = known.first(where: { $0.name == name }) else { throw PlantError("unknown plant '\(name)'", status: 2) }
            try Plants.unplant(in: tree)
            try setup()
            do {
                try Plants.apply(plant, in: tree)
            } catch {
                say("plant-legs: \(error)")
                rows.append(PlantLegs.pad(name, 10) + " cannot be planted: \(error)")
                allCaught = false
                continue
            }
            try setup()
            for leg in legs {
                let log = "\(logs)/\(name)-\(leg.rawValue).log"
                say("plant-legs: \(name) -> \(leg.rawValue) (log \(log))")
                let verdict = runLeg(leg, plant: name, log: log)
                rows.append(PlantLegs.row(plant: name, leg: leg, seconds: verdict.seconds, verdict: verdict.verdict))
                say("plant-legs: " + rows[rows.count - 1])
                allCaught = allCaught && verdict.verdict.isCaught
            }
        }
        try Plants.unplant(in: tree)
        try setup()
        let summary = "\nPlanted bugs:\n" + rows.map { "  " + $0 + "\n" }.joined()
        try Data(summary.utf8).write(to: URL(fileURLWithPath: logs + "/summary.txt"))
        return (rows, allCaught)
    }

    /// Runs one leg in the copy, its output into `log` (emptied first), and judges it.
    func runLeg(_ leg: PlantLeg, plant: String, log: String) -> (seconds: Int, verdict: PlantLegVerdict) {
        // A log that cannot be emptied could still hold an earlier leg's report: never judge it.
        guard FileManager.default.createFile(atPath: log, contents: Data()) else {
            return (0, .notCaught(reason: "cannot empty the leg's log \(log)"))
        }
        let start = Date()
        let outcome = StepRunner(directory: tree, logfile: log).run(command(leg), limit: legLimit)
        let seconds = Int(Date().timeIntervalSince(start).rounded())
        let text = String(decoding: (try? ChildProcess.readFile(log)) ?? [], as: UTF8.self)
        return (seconds, PlantLegs.verdict(outcome: outcome, log: text, report: leg.report(for: plant)))
    }

    /// The copy's scripts/setup.sh, which stages .deps/nanopb (planted or not) into the runtime.
    func setup() throws {
        let result = try ChildProcess.run("/bin/bash", [tree + "/scripts/setup.sh"], in: tree)
        guard result.status == 0 else {
            let last = result.stderrText.split(separator: "\n").last.map(String.init) ?? ""
            throw PlantError("scripts/setup.sh failed in \(tree) (exit \(result.status)): \(last.suffix(200))")
        }
    }
}
