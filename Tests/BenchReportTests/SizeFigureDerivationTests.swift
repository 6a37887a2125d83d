// The figures `wirebench report sizes` derives from the probes: per message used and unused,
// per program, and the shipped layer over the baseline; and the `nm -S` table the unused-symbol
// kinds are read from.

import Testing
@testable import BenchReport

@Suite struct SizeFigureDerivationTests {
    @Test func usedBytesDivideByMessagesLessOneAndUnusedBytesByMessagesNotInThePrunedSchema() throws {
        let figures = try SizeReport.derive(SizeProbeFixture.sizes, allCount: SizeProbeFixture.allCount,
                                            oneCount: SizeProbeFixture.oneCount)
        #expect(figures == SizeProbeFixture.figures)
    }

    @Test func aMissingProbeIsNamedInsteadOfGuessed() {
        var sizes = SizeProbeFixture.sizes
        sizes.executables["SizeOnePruned"] = nil
        #expect(throws: BenchReportError.missingFigure("no size of probe SizeOnePruned")) {
            try SizeReport.derive(sizes, allCount: 11, oneCount: 3)
        }
    }

    @Test func messageCountsThatWouldDivideByZeroAreRefusedNamingBoth() {
        for (all, pruned) in [(1, 0), (11, 11)] {
            #expect(throws: BenchReportError.missingFigure(
                "per-message sizes need more than one message and fewer in the pruned schema (messages \(all), pruned \(pruned))")) {
                try SizeReport.derive(SizeProbeFixture.sizes, allCount: all, oneCount: pruned)
            }
        }
    }

    @Test func aGroupOrSectionWithNoEntryCountsAsNoBytes() {
        let probe = SizeProbeFixture.probe(file: 1, text: 1, data: 1, groups: [.program: 7], sections: [.code: 9])
        #expect(probe.group(.program) == 7 && probe.group(.facades) == 0)
        #expect(probe.section(.code) == 9 && probe.section(.swiftMetadata) == 0)
    }

    @Test func sizedSymbolsKeepNamesWithBlanksAndTheLastSizeAndDropUnsizedAndUndefinedLines() {
        let nm = """
            0000000000001130 0000000000000026 T main
            0000000000004010 0000000000000000 D __data_start
                             U abc
            0000000000002000 00000000000001a0 r rtm_Track_msg
            0000000000002400 0000000000000008 T operator new(unsigned long)
            0000000000003000 0000000000000010 T main
            0000000000003100 zz T not_a_size
            """
        #expect(SectionBreakdown.sizedSymbols(nmOutput: nm) == [
            "main": 0x10, "rtm_Track_msg": 0x1a0, "operator new(unsigned long)": 8,
        ])
    }
}
