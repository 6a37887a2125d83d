// How the peer's side of a proof prints: a per-file table with the same file column as the
// facades' table, the rows that explained differences, and the failures.

extension PeerProofReport {
    /// One line per file and a total, fixed-width, columns prefixed with "sp." for the peer.
    public var table: String {
        let width = max(36, (rows.map(\.file.count).max() ?? 0) + 2)
        let headers = ["ex.same", "ex.expl", "mut.same", "mut.expl", "failed"]
        func line(_ first: String, _ cells: [String]) -> String {
            first.padding(toLength: width, withPad: " ", startingAt: 0)
                + cells.map { String(repeating: " ", count: max(1, 10 - $0.count)) + $0 }.joined()
        }
        func line(_ row: Row) -> String {
            line(row.file, [row.exemplarsSame, row.exemplarsExplained, row.mutantsSame, row.mutantsExplained, row.failed].map(String.init))
        }
        return ([line("\(peer) vs facades", headers)] + rows.map(line) + [line(total)]).joined(separator: "\n")
    }

    /// The table, the explaining rows with their counts, and at most `shown` failures.
    public func summary(shown: Int = 20) -> [String] {
        var lines = [table, "\(peer) vs facades: differences explained, by row of docs/deviations.md (inputs):"]
        for (row, count) in explainedBy.sorted(by: { $0.key < $1.key }) { lines.append("  #\(row): \(count)") }
        lines += failures.prefix(shown).map { "FAIL \($0)" }
        if failures.count > shown { lines.append("... and \(failures.count - shown) more \(peer) failures") }
        return lines
    }
}
