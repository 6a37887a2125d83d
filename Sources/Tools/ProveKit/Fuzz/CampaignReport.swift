// The end report of a libFuzzer campaign, read from its log: executions, exec/s, coverage, features,
// the corpus's growth. Pure: parsing and formatting only (the plot and the triage are FuzzCampaign's).

/// What one campaign's log says. With several jobs the log is every worker's, concatenated: the
/// executions and rates add up, the coverage is the last status line's.
struct CampaignReport: Equatable {
    let executions: Int
    let execsPerSecond: Int
    /// Edges (`cov:`) and features (`ft:`) of the last status line that has them; nil when none does.
    let edges: Int?
    let features: Int?

    init(executions: Int, execsPerSecond: Int, edges: Int?, features: Int?) {
        self.executions = executions
        self.execsPerSecond = execsPerSecond
        self.edges = edges
        self.features = features
    }

    init(log: String) {
        var executions = 0, rate = 0
        var edges: Int?, features: Int?
        for line in log.split(separator: "\n", omittingEmptySubsequences: false) {
            if let value = Self.stat("stat::number_of_executed_units", in: line) { executions += value }
            if let value = Self.stat("stat::average_exec_per_sec", in: line) { rate += value }
            if let value = Self.number(after: "cov: ", in: line) { edges = value }
            if let value = Self.number(after: "ft: ", in: line) { features = value }
        }
        self.init(executions: executions, execsPerSecond: rate, edges: edges, features: features)
    }

    /// The value of a final-stats line `name: N`.
    private static func stat(_ name: String, in line: Substring) -> Int? {
        guard line.hasPrefix(name) else { return nil }
        let fields = line.split(separator: " ")
        return fields.count >= 2 ? Int(fields[1]) : nil
    }

    /// The digits right after the last `marker` in `line`, nil when none follow it.
    static func number(after marker: String, in line: Substring) -> Int? {
        guard let range = line.range(of: marker, options: .backwards) else { return nil }
        let digits = line[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits)
    }

    /// A report row: the label padded to 22 columns, two spaces in.
    static func row(_ label: String, _ value: String) -> String {
        "  " + label.padding(toLength: max(22, label.count), withPad: " ", startingAt: 0) + " " + value
    }

    /// The report's heading and rows; `before` and `after` count the corpus's entries.
    func lines(target: FuzzTarget, seconds: Int, corpus: String, before: Int, after: Int) -> [String] {
        ["", "fuzz report: target \(target.rawValue), \(seconds) s",
         Self.row("executions", "\(executions)"),
         Self.row("exec/s", "\(execsPerSecond)"),
         Self.row("coverage (edges)", edges.map(String.init) ?? "?"),
         Self.row("features", features.map(String.init) ?? "?"),
         Self.row("corpus entries", "\(after) (\(after - before) new in \(corpus))")]
    }

    /// Whether a libFuzzer output line is shown while a campaign runs: status lines (`#N ...`),
    /// errors, the broken property, sanitizer summaries.
    static func isProgress(_ line: Substring) -> Bool {
        if line.first == "#", line.dropFirst().first?.isNumber == true { return true }
        return ["ERROR", "broken property", "SUMMARY", "Fatal error"].contains { line.contains($0) }
    }

    /// Whether a log shows executions: at least one final-stats line with a positive count.
    static func executedAnything(_ log: String) -> Bool {
        log.split(separator: "\n").contains { (stat("stat::number_of_executed_units", in: $0) ?? 0) > 0 }
    }
}
