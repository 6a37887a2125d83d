// The final table of `wireproof check-foreign`: one row per proof, read from its --json summary
// (messages, exemplars, passed, deviation rows exercised, the device party's counts, seconds).

import FacadeProof
import Foundation

enum ForeignTable {
    /// One proof's row: its name, its summary (nil when prove wrote none) and its wall time.
    struct Entry {
        let name: String
        let summary: ProveSummary?
        let seconds: Int
    }

    /// Reads the summary prove wrote to `path`; nil when it is missing or unreadable.
    static func summary(at path: String) -> ProveSummary? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(ProveSummary.self, from: data)
    }

    /// The table: a header, a legend line, one line per entry, a total.
    static func render(_ entries: [Entry]) -> String {
        var lines = [
            left("schema", 30) + " " + right("files", 5) + " " + right("messages", 8) + " " + right("exemplars", 9) + " "
                + right("passed", 7) + " " + right("explained", 9) + " " + right("excluded", 8) + " " + right("mutants", 8) + " "
                + right("seconds", 7) + "  " + left("deviation rows exercised", 34) + " " + left("device acc/ref/trunc", 22) + " verdict",
            left("", 30) + " (device: exemplars accepted / refused by option / truncated; limit exemplars at accepted, past refused)",
        ]
        var sums = [Int](repeating: 0, count: 7)
        for entry in entries {
            let values = counts(entry.summary)
            sums = zip(sums, values).map { $0 + $1 }
            lines.append(left(entry.name, 30) + " " + numbers(values) + " " + right(String(entry.seconds), 7) + "  "
                         + left(exercised(entry.summary), 34) + " " + left(deviceCell(entry.summary), 22) + " " + verdict(entry.summary))
        }
        lines.append(left("total", 30) + " " + numbers(sums))
        return lines.joined(separator: "\n")
    }

    /// files, messages, exemplars, passed, explained, excluded, mutants (accepted + rejected).
    static func counts(_ summary: ProveSummary?) -> [Int] {
        let rows = summary?.proof?.rows ?? []
        func total(_ key: (SchemaProofReport.Row) -> Int) -> Int { rows.reduce(0) { $0 + key($1) } }
        return [rows.count, total(\.messages), total(\.exemplars), total(\.passed), total(\.explained), total(\.excluded),
                total { $0.mutantsAccepted + $0.mutantsRejected }]
    }

    /// The deviation rows the proof exercised (elements seen, or exemplars explained), or "-".
    static func exercised(_ summary: ProveSummary?) -> String {
        let rows = (summary?.proof?.deviations ?? []).filter { $0.elements > 0 || ($0.explainedExemplars ?? 0) > 0 }.map { String($0.row) }
        return rows.isEmpty ? "-" : rows.joined(separator: ",")
    }

    /// "accepted/refused/truncated at limitAtAccepted/limitAt past limitPastRefused/limitPast", "off"
    /// when --no-device left the party out, "-" when it did not take part for another reason.
    static func deviceCell(_ summary: ProveSummary?) -> String {
        if let t = summary?.device?.total {
            return "\(t.accepted)/\(t.refusedByOption)/\(t.truncated) at \(t.limitAtAccepted)/\(t.limitAt) past \(t.limitPastRefused)/\(t.limitPast)"
        }
        return summary?.deviceSkipped == "--no-device" ? "off" : "-"
    }

    /// "PROVED", or "FAILED: why", at most 60 characters.
    static func verdict(_ summary: ProveSummary?) -> String {
        if summary?.passed == true { return "PROVED" }
        return String(("FAILED: " + (summary?.error ?? "a check failed")).prefix(60))
    }

    private static func numbers(_ values: [Int]) -> String {
        zip(values, [5, 8, 9, 7, 9, 8, 8]).map { right(String($0), $1) }.joined(separator: " ")
    }

    /// `text` padded with spaces to `width` (never cut), like printf's %-Ns and %Ns.
    static func left(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
    static func right(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
}
