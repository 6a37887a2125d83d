// `wirebench report` subcommands as typed by hand: each merges its figures into RESULTS.json
// (a zero iteration count treated as one), and `summary --doc` rewrites the document's section
// while `summary` alone writes nothing.

import Foundation
import Testing
@testable import BenchReport

@Suite struct ReportSubcommandTests {
    @Test func codecWithZeroIterationsDividesTheLoopCountsByOne() throws {
        let folder = try ScratchFolder([
            "time.txt": CodecReportStorageTests.timeOutput,
            "listings/chat.txt": " 1,800,000 (10.00%)  ???:$s10CodecBench16loopFacadeEncodeySi_SitF [x]\n",
        ])
        defer { folder.remove() }
        let results = folder.path + "/RESULTS.json"
        try ReportCommand.Codec.parse([results, folder.path + "/time.txt", folder.path + "/listings", "0"]).run()
        #expect(try BenchResults.load(results).instructions == ["chat": ["facade_encode": 1_800_000]])
    }

    @Test func ratiosStoresWhatTheRatioFolderHolds() throws {
        let work = try ScratchFolder(RatioListingReadingTests.files)
        defer { work.remove() }
        let results = work.path + "/RESULTS.json"
        try ReportCommand.Ratios.parse([results, work.path]).run()
        let expected = try RatioReport.read(work: work.path)
        #expect(try BenchResults.load(results).ratios == expected)
    }

    @Test func summaryWritesTheSectionOnlyIntoTheDocumentItIsGiven() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        var r = BenchResults()
        r.messagesAll = 11
        try r.save(folder.path + "/RESULTS.json")
        try ReportCommand.Summary.parse([folder.path + "/RESULTS.json"]).run()
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/doc.md"))
        try ReportCommand.Summary.parse([folder.path + "/RESULTS.json", "--doc", folder.path + "/doc.md",
                                         "--header", "Measured here.", "--command", "make bench"]).run()
        let expected = MeasurementsSection.lines(r, header: "Measured here.", command: "make bench").joined(separator: "\n") + "\n"
        #expect(try folder.read("doc.md") == expected)
    }
}
