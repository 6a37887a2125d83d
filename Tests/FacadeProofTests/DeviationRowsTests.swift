import FacadeProof
import Foundation
import OracleCheck
import ProtoSchema
import Testing
import TestSupport

/// The proof's report cites deviations by their row number in docs/deviations.md: each number must
/// be the row about the same subject, so a reader who looks it up finds the right explanation.
@Suite struct DeviationRowsTests {
    /// A phrase that both the report's summary of a row and the document's row with that number
    /// contain (lowercased). A new row needs its phrase here.
    static let subjects: [Int: String] = [
        1: "explicit zeros", 2: "implicit-presence zero", 3: "singular submessage", 4: "oneof",
        5: "unknown fields", 6: "packed", 7: "over-wide varints", 8: "embedded nul", 9: "utf-8",
        10: "wire order", 11: "duplicate map key", 12: "closed", 13: "unsigned", 14: "wrong wire type",
        15: "offsets", 20: "extension",
    ]

    /// The bold opening of each numbered row of docs/deviations.md, by row number.
    static func documentedRows() throws -> [Int: String] {
        let root = URL(fileURLWithPath: repositoryRoot)
        let text = try String(contentsOf: root.appendingPathComponent("docs/deviations.md"), encoding: .utf8)
        var rows: [Int: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 2, let number = Int(cells[1]), cells[2].hasPrefix("**") else { continue }
            rows[number] = String(cells[2].dropFirst(2).prefix { $0 != "*" }).lowercased()
        }
        return rows
    }

    @Test func everyRowTheReportCitesIsTheDocumentsRowOnThatSubject() throws {
        let documented = try Self.documentedRows()
        try #require(documented.count >= 20, "docs/deviations.md rows: \(documented.keys.sorted())")
        let schemas = try InlineSchema.compile(["d.proto": "syntax = \"proto3\"; package d; message M { int32 v = 1; }"])
        let rows = DeviationRows.exposure(of: schemas.messages, in: schemas)
        #expect(rows.map(\.row) == Array(Set(rows.map(\.row))).sorted(), "each row once, in order: \(rows.map(\.row))")
        #expect(Set(rows.map(\.row)) == Set(Self.subjects.keys))
        for row in rows {
            guard let subject = Self.subjects[row.row], let heading = documented[row.row] else {
                Issue.record("row \(row.row) (\(row.summary)) has no subject here or no row in docs/deviations.md")
                continue
            }
            #expect(row.summary.lowercased().contains(subject), "row \(row.row)'s summary \"\(row.summary)\" is not about \(subject)")
            #expect(heading.contains(subject), "docs/deviations.md row \(row.row) \"\(heading)\" is not about \(subject)")
        }
    }
}
