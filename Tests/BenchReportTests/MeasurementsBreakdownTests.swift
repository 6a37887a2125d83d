// The bench section of docs/measurements.md: the shipped layer's breakdown table per build
// configuration (every symbol group, every section group, then text+data), and the file write
// that creates a missing document or replaces only the marked section of an existing one.

import Testing
@testable import BenchReport

@Suite struct MeasurementsBreakdownTests {
    static func results() -> BenchResults {
        var r = BenchResults()
        r.sizes = ["default": SizeProbeFixture.sizes]
        return r
    }

    @Test func theBreakdownTableListsGroupsSectionsAndTextPlusDataOfThePacketProbesAndTheBaseline() throws {
        let lines = MeasurementsSection.lines(Self.results(), header: "h", command: "c")
        let start = try #require(lines.firstIndex { $0.hasPrefix("Breakdown of the shipped layer (SwiftPM default; ") })
        #expect(lines[start - 1] == "")
        #expect(Array(lines[(start + 1)...]) == [
            "",
            "| Group | SizePacket (all types) | SizePacketPruned | SizeBaseline |",
            "|---|--:|--:|--:|",
            "| nanopb C runtime | 20,000 | 20,000 | 0 |",
            "| generated C | 30,000 | 4,000 | 0 |",
            "| NanopbRuntime | 10,000 | 10,000 | 0 |",
            "| facades | 15,000 | 7,000 | 0 |",
            "| facade generics | 5,000 | 1,000 | 0 |",
            "| program | 1,000 | 1,000 | 500 |",
            "| other Swift | 500 | 0 | 0 |",
            "| other | 250 | 0 | 9,000 |",
            "| not in a symbol | 13,250 | 5,000 | 1,500 |",
            "| section: code (.text) | 60,000 | 30,000 | 4,000 |",
            "| section: unwind tables (.eh_frame*) | 8,000 | 4,000 | 1,500 |",
            "| section: relocations (.rela.*) | 3,000 | 1,500 | 500 |",
            "| section: data (.rodata, .data.rel.ro, .data) | 15,000 | 7,000 | 2,000 |",
            "| section: Swift metadata (swift5_*) | 6,000 | 2,500 | 0 |",
            "| section: dynamic linking, headers | 3,000 | 3,000 | 3,000 |",
            "| **text+data** | 95,000 | 48,000 | 11,000 |",
            MeasurementsSection.endMarker,
        ])
    }

    @Test func writingCreatesAMissingDocumentAndReplacesOnlyTheSectionOfAnExistingOne() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path + "/measurements.md"
        try MeasurementsSection.write(["<!-- bench:begin -->", "one", "<!-- bench:end -->"], to: path)
        #expect(try folder.read("measurements.md") == "<!-- bench:begin -->\none\n<!-- bench:end -->\n")
        try folder.write("# Prose\n\n<!-- bench:begin -->\nold\n<!-- bench:end -->\n\nMore prose.\n", to: "measurements.md")
        try MeasurementsSection.write(["<!-- bench:begin -->", "two", "<!-- bench:end -->"], to: path)
        #expect(try folder.read("measurements.md") == "# Prose\n\n<!-- bench:begin -->\ntwo\n<!-- bench:end -->\n\nMore prose.\n")
    }
}
