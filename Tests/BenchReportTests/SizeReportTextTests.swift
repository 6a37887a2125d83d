// The terminal text of `wirebench report sizes`: every probe's `size` columns, the per-message
// figures and the shipped layer's breakdown, in columns under their headers, for each
// configuration in turn. Expected lines were worked out by hand from SizeProbeFixture.

import Testing
@testable import BenchReport

@Suite struct SizeReportTextTests {
    static func printed(_ configs: [String] = ["default"]) -> [String] {
        var lines: [String] = []
        let sizes = Dictionary(uniqueKeysWithValues: configs.map { ($0, SizeProbeFixture.sizes) })
        let figures = Dictionary(uniqueKeysWithValues: configs.map { ($0, SizeProbeFixture.figures) })
        SizeReportText.print(configs, sizes: sizes, figures: figures, allCount: SizeProbeFixture.allCount,
                             oneCount: SizeProbeFixture.oneCount, print: { lines.append($0) })
        return lines
    }

    @Test func theProbeTableListsEveryProbeInReportOrderUnderItsHeader() {
        let lines = Self.printed()
        #expect(Array(lines.prefix(8)) == [
            "\n  [default] stripped executables (`size`: text includes .rodata and .eh_frame)",
            "    executable          file bytes      text     data  text+data",
            "    SizeBaseline            20,000    10,000    1,000     11,000",
            "    SizePacket             120,000    90,000    5,000     95,000",
            "    SizePacketPruned        60,000    45,000    3,000     48,000",
            "    SizeOne                 70,000    50,000    4,000     54,000",
            "    SizeOnePruned           58,000    43,000    2,400     45,400",
            "    SizeAll              1,500,000 1,200,000   34,567  1,234,567",
        ])
    }

    @Test func perMessageFiguresDivideUsedBytesByMessagesLessOneAndUnusedByPrunedMessages() throws {
        let lines = Self.printed()
        let start = try #require(lines.firstIndex(of: "\n  [default] bytes of facade code per message (11 messages in the schema)"))
        #expect(Array(lines[start...].prefix(16)) == [
            "\n  [default] bytes of facade code per message (11 messages in the schema)",
            "    used (SizeAll - SizeOne) / 10:  facade symbols 40,000 B/message; whole binary 118,057 B/message "
                + "(of which the calling program 100)",
            "    unused but linked (SizeOne - SizeOnePruned) / 8:  facade symbols 2,500 B/message; whole binary 1,075 B/message",
            "    SizeOnePruned's facade symbols in total: 30,000 B",
            "    what each unused message keeps, per message (sized symbols in SizeOne, not in SizeOnePruned):",
            "      type metadata, value witnesses, conformances       1,000 B",
            "      static lets (lazy init, once tokens)                 100 B",
            "      code (accessors, thunks, specialisations)            500 B",
            "      C (descriptors, tables)                                0 B",
            "    by section, per message:       used   unused",
            "      code (.text)                          57,000      500",
            "      unwind tables (.eh_frame*)             4,500      100",
            "      relocations (.rela.*)                    900        5",
            "      data (.rodata, .data.rel.ro, .data)    9,000      100",
            "      Swift metadata (swift5_*)              2,700      100",
            "      dynamic linking, headers                -200      250",
        ])
        #expect(lines.count == start + 16 + 20, "the breakdown follows the per-message block")
    }

    @Test func theBreakdownSetsThePacketProbesAgainstTheBaselineByGroupAndSection() throws {
        let lines = Self.printed()
        let start = try #require(lines.firstIndex { $0.contains("shipped layer in SizePacket") })
        #expect(Array(lines[start...]) == [
            "\n  [default] shipped layer in SizePacket (encode + decode of a chat DataPacket) vs SizeBaseline",
            "    all types: +84,000 B text+data (82.0 KiB), +100,000 B stripped file",
            "    pruned:    +37,000 B text+data (36.1 KiB), +40,000 B stripped file",
            "    group (nm -S, unstripped)              all types      pruned    baseline",
            "    nanopb C runtime                          20,000      20,000           0",
            "    generated C                               30,000       4,000           0",
            "    NanopbRuntime                             10,000      10,000           0",
            "    facades                                   15,000       7,000           0",
            "    facade generics                            5,000       1,000           0",
            "    program                                    1,000       1,000         500",
            "    other Swift                                  500           0           0",
            "    other                                        250           0       9,000",
            "    not in a symbol                           13,250       5,000       1,500",
            "    section (stripped binary)              all types      pruned    baseline",
            "    code (.text)                              60,000      30,000       4,000",
            "    unwind tables (.eh_frame*)                 8,000       4,000       1,500",
            "    relocations (.rela.*)                      3,000       1,500         500",
            "    data (.rodata, .data.rel.ro, .data)       15,000       7,000       2,000",
            "    Swift metadata (swift5_*)                  6,000       2,500           0",
            "    dynamic linking, headers                   3,000       3,000       3,000",
        ])
    }

    @Test func everyConfigurationsTablesComeFirstThenItsPerMessageFiguresThenItsBreakdown() {
        let headings = Self.printed(["default", "stripped"]).filter { $0.hasPrefix("\n  [") }.map { String($0.prefix { $0 != "(" }) }
        #expect(headings == [
            "\n  [default] stripped executables ",
            "\n  [stripped] stripped executables ",
            "\n  [default] bytes of facade code per message ",
            "\n  [stripped] bytes of facade code per message ",
            "\n  [default] shipped layer in SizePacket ",
            "\n  [stripped] shipped layer in SizePacket ",
        ])
    }
}
