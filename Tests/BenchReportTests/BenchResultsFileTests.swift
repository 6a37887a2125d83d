// RESULTS.json, the file each `wirebench report` step reads and rewrites: absent means no figures
// yet, and what is saved loads back unchanged, pretty-printed with sorted keys so runs diff cleanly.

import Testing
@testable import BenchReport

@Suite struct BenchResultsFileTests {
    @Test func aMissingResultsFileLoadsAsEmptyResults() throws {
        #expect(try BenchResults.load("/nonexistent/bench-report/RESULTS.json") == BenchResults())
    }

    @Test func savedResultsLoadBackEqualWithOneKeyPerLineInSortedOrder() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        var r = BenchResults()
        r.runtimeLines = RuntimeLineCount(lines: 5, codeLines: 2, files: 1)
        r.messagesOnePruned = 3
        r.messagesAll = 11
        try r.save(folder.path + "/RESULTS.json")
        #expect(try BenchResults.load(folder.path + "/RESULTS.json") == r)
        let text = try folder.read("RESULTS.json")
        let keys = text.split(separator: "\n").compactMap { line in
            line.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
        }
        #expect(keys == ["messagesAll", "messagesOnePruned", "runtimeLines", "codeLines", "files", "lines"])
    }

    @Test func resultsWithAllCommandsFiguresRoundTrip() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        var r = BenchResults()
        r.sizes = ["default": SizeProbeFixture.sizes]
        r.sizeFigures = ["default": SizeProbeFixture.figures]
        try r.save(folder.path + "/RESULTS.json")
        #expect(try BenchResults.load(folder.path + "/RESULTS.json") == r)
    }
}
