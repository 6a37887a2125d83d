// What `wireproof fuzz planted` makes of each fuzzer run: whether it found the planted bug (an
// artifact libFuzzer wrote), what reported it, and the table row of a bug and target (found
// count, median time to the first crash). Pure, so tests pin the verdicts and the columns.

/// One fuzzer run on a planted bug.
struct PlantedFuzzResult: Equatable {
    /// Wall seconds from start to exit (to the first crash when `found`).
    let seconds: Double
    let found: Bool
    /// What reported it (`PlantedFuzzTable.report`); nil when nothing was found.
    let report: String?
}

enum PlantedFuzzTable {
    /// The files libFuzzer writes when a run finds something, by name prefix.
    static let artifactPrefixes = ["crash-", "leak-", "timeout-", "oom-"]

    static func isArtifact(_ name: String) -> Bool { artifactPrefixes.contains { name.hasPrefix($0) } }

    /// The first sanitizer or libFuzzer error, or broken property, named in a run's log; "crash"
    /// when the log names none.
    static func report(in log: String) -> String {
        let pattern = #"ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [A-Za-z-]+|broken property \[[a-z-]+\]"#
        guard let regex = try? Regex(pattern), let match = try? regex.firstMatch(in: log) else { return "crash" }
        return String(log[match.range])
    }

    /// A run's time as shown: seconds to one decimal when found, ">LIMIT" when not.
    static func cell(_ result: PlantedFuzzResult, limit: Int) -> String {
        result.found ? decimal(result.seconds) : ">\(limit)"
    }

    /// The median run's cell (runs not found count as `limit`; of an even count the lower middle).
    static func median(_ results: [PlantedFuzzResult], limit: Int) -> String {
        guard !results.isEmpty else { return "-" }
        let ordered = results.sorted { value($0, limit) < value($1, limit) }
        return cell(ordered[(ordered.count + 1) / 2 - 1], limit: limit)
    }

    static let header = columns("bug", "target", "found", "median", "report (last run)")

    /// The row of one bug and target: found/runs, median seconds, the last found run's report.
    static func row(bug: String, target: String, results: [PlantedFuzzResult], limit: Int) -> String {
        let found = results.filter(\.found)
        return columns(bug, target, "\(found.count)/\(results.count)", median(results, limit: limit) + "s", found.last?.report ?? "none")
    }

    static func columns(_ bug: String, _ target: String, _ found: String, _ median: String, _ report: String) -> String {
        pad(bug, 18) + " " + pad(target, 13) + " " + String(repeating: " ", count: max(0, 5 - found.count)) + found + " " + pad(median, 10) + " " + report
    }

    private static func value(_ result: PlantedFuzzResult, _ limit: Int) -> Double { result.found ? result.seconds : Double(limit) }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
