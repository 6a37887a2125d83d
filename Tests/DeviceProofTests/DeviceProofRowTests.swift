// The device table's rows: each mutant verdict lands in exactly one column, and adding rows (the
// total) sums every count, the ones added later included.

import Foundation
import Testing
@testable import DeviceProof

@Suite struct DeviceProofRowTests {
    typealias Row = DeviceProofReport.Row

    /// The row's counts by their JSON name (every stored count, whatever fields are added later).
    static func counts(_ row: Row) throws -> [String: Int] {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(row)) as? [String: Any] ?? [:]
        return object.compactMapValues { $0 as? Int }
    }

    @Test func eachVerdictIsCountedOnceInItsOwnColumn() throws {
        let cases: [(DeviceMutantVerdict, String)] = [
            (.same, "mutantsSame"), (.bothRefuse, "mutantsSame"), (.explainedByOption("why"), "mutantsByOption"),
            (.deviceMergesWhereFacadesReplace, "mutantsMerged"), (.readDifferentlyByStockNanopb, "mutantsStock"),
            (.failure("what"), "failed"),
        ]
        for (verdict, column) in cases {
            var row = Row(file: "f.proto")
            row.count(verdict)
            let nonZero = try Self.counts(row).filter { $0.value != 0 }
            #expect(nonZero == ["mutants": 1, column: 1], "\(verdict)")
        }
    }

    @Test func addingRowsSumsEveryCount() throws {
        // Every count of `a` set to a distinct value through its JSON form, so a count `add` forgets shows.
        let names = try Self.counts(Row(file: "a")).keys.sorted()
        #expect(names.count == 23, "the row's 23 counts: \(names)")
        var values: [String: Any] = ["file": "a.proto"]
        for (index, name) in names.enumerated() { values[name] = index + 1 }
        let a = try JSONDecoder().decode(Row.self, from: JSONSerialization.data(withJSONObject: values))
        var total = Row(file: "total")
        total.add(a)
        total.add(a)
        let sums = try Self.counts(total)
        for (index, name) in names.enumerated() { #expect(sums[name] == 2 * (index + 1), "\(name)") }
        #expect(total.file == "total")
    }
}
