@testable import FacadeProof
import Testing

/// How the peer's report prints: a header and one line per file and the total, the file column at
/// least 36 wide and 2 wider than the longest file name, each count right-aligned in 10 columns
/// with at least one space before it; then the explaining rows by name and at most `shown`
/// failures with a count of the rest.
@Suite struct PeerProofTableLayoutTests {
    static func row(_ file: String, _ counts: [Int]) -> PeerProofReport.Row {
        var row = PeerProofReport.Row(file: file)
        row.exemplarsSame = counts[0]; row.exemplarsExplained = counts[1]
        row.mutantsSame = counts[2]; row.mutantsExplained = counts[3]; row.failed = counts[4]
        return row
    }

    @Test func shortFileNamesGetTheMinimumColumnOf36() {
        let report = PeerProofReport(peer: "sp", rows: [Self.row("a.proto", [3, 1, 40, 2, 0])], explainedBy: [:], failures: [])
        #expect(report.table.split(separator: "\n", omittingEmptySubsequences: false) == [
            "sp vs facades                          ex.same   ex.expl  mut.same  mut.expl    failed",
            "a.proto                                      3         1        40         2         0",
            "total                                        3         1        40         2         0",
        ])
    }

    @Test func aLongFileNameWidensTheColumnAndAWideCountKeepsOneSpace() {
        let long = String(repeating: "x", count: 40)
        let report = PeerProofReport(peer: "sp", rows: [Self.row(long, [1_234_567_890, 0, 0, 0, 7]), Self.row("b.proto", [1, 2, 3, 4, 5])],
                                     explainedBy: [:], failures: [])
        #expect(report.table.split(separator: "\n", omittingEmptySubsequences: false) == [
            "sp vs facades                                ex.same   ex.expl  mut.same  mut.expl    failed",
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx   1234567890         0         0         0         7",
            "b.proto                                            1         2         3         4         5",
            "total                                      1234567891         2         3         4        12",
        ])
    }

    @Test func theSummaryListsRowsByNameAndCutsFailuresAtShown() {
        let report = PeerProofReport(peer: "sp", rows: [], explainedBy: ["S1": 2, "12": 1, "3/4": 5], failures: ["f1", "f2", "f3"])
        #expect(report.summary(shown: 2) == [
            report.table, "sp vs facades: differences explained, by row of docs/deviations.md (inputs):",
            "  #12: 1", "  #3/4: 5", "  #S1: 2", "FAIL f1", "FAIL f2", "... and 1 more sp failures",
        ])
        #expect(report.summary(shown: 3).suffix(3) == ["FAIL f1", "FAIL f2", "FAIL f3"])
    }

    @Test func theSummaryShowsTwentyFailuresByDefault() {
        let failures = (1...21).map { "f\($0)" }
        let lines = PeerProofReport(peer: "sp", rows: [], explainedBy: [:], failures: failures).summary()
        #expect(lines.count == 2 + 20 + 1)
        #expect(lines.dropFirst(2).first == "FAIL f1" && lines.dropLast().last == "FAIL f20")
        #expect(lines.last == "... and 1 more sp failures")
        #expect(PeerProofReport(peer: "sp", rows: [], explainedBy: [:], failures: Array(failures.prefix(20))).summary().last == "FAIL f20")
    }
}
