// Reading an lcov trace and placing mutants on it: which lines count as executed, and the counts
// `wiremutate coverage` prints per layer and per file.

import Testing
@testable import MutationKit

@Suite struct LineCoverageTests {
    static let trace = """
        TN:
        SF:/repo/Sources/A/a.swift
        FN:1,f
        DA:1,4
        DA:2,0
        DA:3,0
        end_of_record
        SF:/repo/Sources/A/a.swift
        DA:2,7
        DA:x,1
        end_of_record
        DA:9,1
        SF:/elsewhere/b.swift
        DA:5,0
        end_of_record
        """

    @Test func aLineIsExecutedIfAnyRecordOfItsFileCountedItAndUnknownWithoutACount() {
        let coverage = LineCoverage(lcov: Self.trace, root: "/repo")
        #expect(coverage.executed("Sources/A/a.swift", line: 1) == true)
        #expect(coverage.executed("Sources/A/a.swift", line: 2) == true, "the second record counted it")
        #expect(coverage.executed("Sources/A/a.swift", line: 3) == false)
        #expect(coverage.executed("Sources/A/a.swift", line: 4) == nil)
        #expect(coverage.executed("/elsewhere/b.swift", line: 5) == false, "a path outside the root is kept whole")
        #expect(coverage.counts.keys.sorted() == ["/elsewhere/b.swift", "Sources/A/a.swift"], "a DA line outside a record is dropped")
        #expect(coverage.executed("Sources/A/a.swift", line: 9) == nil, "the record before it ended: its file does not get the line")
    }

    static func mutant(_ layer: String, _ path: String, _ line: Int) -> Mutant {
        Mutant(layer: Layer(layer, [], ""), path: path, line: line, original: "a\n", mutated: "b\n", rule: "r")
    }

    @Test func eachLayerCountsItsTracedUnexecutedAndUntracedMutantsAndFilesRankByUnexecuted() {
        let coverage = LineCoverage(lcov: Self.trace, root: "/repo")
        let gaps = CoverageGaps(mutants: [
            Self.mutant("x", "Sources/A/a.swift", 1), Self.mutant("x", "Sources/A/a.swift", 3), Self.mutant("x", "Sources/A/a.swift", 3),
            Self.mutant("y", "/elsewhere/b.swift", 5), Self.mutant("y", "scripts/s.sh", 1),
        ], coverage: coverage)
        #expect(gaps.layers == [CoverageGaps.LayerRow(layer: "x", traced: 3, unexecuted: 2, untraced: 0),
                                CoverageGaps.LayerRow(layer: "y", traced: 1, unexecuted: 1, untraced: 1)])
        #expect(gaps.files.map { "\($0.unexecuted) \($0.layer) \($0.path)" } == ["2 x Sources/A/a.swift", "1 y /elsewhere/b.swift"])
        #expect(gaps.text(fileLimit: 1) == """
            layer            traced  unexecuted  share   untraced (no line data: scripts, C, headers)
            x                     3           2    66 %          0
            y                     1           1   100 %          1
            all                   4           3    75 %          1

            files with the most mutants on unexecuted lines:
                 2  x  Sources/A/a.swift

            """)
        #expect(!gaps.text(fileLimit: 0).contains("files with the most"), "a file limit of 0 prints no file section")
    }

    @Test func everyLineExecutedPrintsNoFileSection() {
        let gaps = CoverageGaps(mutants: [Self.mutant("x", "Sources/A/a.swift", 1)], coverage: LineCoverage(lcov: Self.trace, root: "/repo"))
        #expect(gaps.files.isEmpty)
        #expect(!gaps.text(fileLimit: 5).contains("files with the most"), "\(gaps.text(fileLimit: 5))")
    }
}
