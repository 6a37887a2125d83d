// The report of a run: a table per layer and file (printed, and in report.md with every survivor as
// a diff) and report.json. Score = (killed + timed out) / (killed + timed out + survived).

import Foundation

/// A judged (or reused, or unjudged) mutant.
public struct Verdict {
    public let mutant: Mutant
    public let outcome: Outcome
    public let detail: String
    public let seconds: Double
}

public struct Tally {
    public var counts: [Outcome: Int] = [:]

    init(_ verdicts: [Verdict]) { for v in verdicts { counts[v.outcome, default: 0] += 1 } }

    subscript(_ outcome: Outcome) -> Int { counts[outcome] ?? 0 }

    /// Nil when nothing was scored.
    public var score: Double? {
        let caught = self[.killed] + self[.timeout], scored = caught + self[.survived]
        return scored == 0 ? nil : 100 * Double(caught) / Double(scored)
    }

}

/// report.json: what a run judged, for tools that read it rather than the table.
public struct MutationReportFile: Codable, Equatable {
    /// A tally's counts keyed by `Outcome.rawValue` (every outcome present), and its score (nil: none scored).
    public struct Counts: Codable, Equatable {
        public let outcomes: [String: Int]
        public let score: Double?

        init(_ tally: Tally) {
            outcomes = Dictionary(uniqueKeysWithValues: Outcome.allCases.map { ($0.rawValue, tally[$0]) })
            score = tally.score
        }
    }

    public struct Survivor: Codable, Equatable {
        public let id: String
        public let layer: String
        public let diff: String
    }

    public let seed: Int
    public let sample: Int
    public let seconds: Int
    /// Layer name to its counts; layers with no verdict are absent.
    public let layers: [String: Counts]
    public let survivors: [Survivor]
    public let total: Counts
}

public enum MutationReport {
    static let columns: [(String, Outcome)] = [("killed", .killed), ("timeout", .timeout), ("survived", .survived),
                                               ("no-compile", .noCompile), ("equivalent", .equivalent), ("not judged", .notJudged)]

    static func row(_ name: String, _ cells: [String], _ score: String) -> String {
        let padded = name.count >= 44 ? name : name + String(repeating: " ", count: 44 - name.count)
        let widths = [7, 8, 9, 11, 11, 11]
        return padded + zip(cells, widths).map { " " + String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined()
            + " " + String(repeating: " ", count: max(0, 7 - score.count)) + score
    }

    static func row(_ name: String, _ tally: Tally) -> String {
        row(name, columns.map { String(tally[$0.1]) }, tally.score.map { String(format: "%.1f%%", $0) } ?? "-")
    }

    /// Writes report.md and report.json into `folder`; returns the table and the total score.
    @discardableResult
    public static func write(_ verdicts: [Verdict], seed: Int, sample: Int, seconds: Double,
                             folder: String) -> (table: String, score: Double?) {
        var lines = [row("layer / file", columns.map(\.0), "score")]
        var layers: [String: MutationReportFile.Counts] = [:]
        for layer in Layer.all {
            let rows = verdicts.filter { $0.mutant.layer == layer }
            if rows.isEmpty { continue }
            let tally = Tally(rows)
            lines.append(row(layer.name, tally))
            layers[layer.name] = MutationReportFile.Counts(tally)
            for path in Set(rows.map(\.mutant.path)).sorted() {
                lines.append(row("  " + path, Tally(rows.filter { $0.mutant.path == path })))
            }
        }
        let total = Tally(verdicts)
        lines.append(row("total", total))
        let judged = verdicts.reduce(0) { $0 + $1.seconds }
        lines.append("\(verdicts.count) mutants, seed \(seed): \(String(format: "%.1f", judged / 60)) min of judging "
            + "(this run \(String(format: "%.1f", seconds / 60)) min; verdicts reused by --resume keep their own time)")
        let table = lines.joined(separator: "\n")
        var markdown = ["# Mutation report", "", "```", table, "```", "", "## Survivors", ""]
        var survivors: [MutationReportFile.Survivor] = []
        for v in verdicts where v.outcome == .survived {
            let diff = v.mutant.diff
            markdown += ["### \(v.mutant.ident) (\(v.mutant.layer.name))", "", "```diff",
                         String(diff.hasSuffix("\n") ? diff.dropLast() : diff[...]), "```", ""]
            survivors.append(MutationReportFile.Survivor(id: v.mutant.ident, layer: v.mutant.layer.name, diff: diff))
        }
        let file = MutationReportFile(seed: seed, sample: sample, seconds: Int(seconds.rounded()), layers: layers,
                                      survivors: survivors, total: MutationReportFile.Counts(total))
        _ = FileManager.default.createFile(atPath: folder + "/report.md", contents: Data((markdown.joined(separator: "\n") + "\n").utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let json = try? encoder.encode(file) {
            _ = FileManager.default.createFile(atPath: folder + "/report.json", contents: json)
        }
        return (table, total.score)
    }
}
