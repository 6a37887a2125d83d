import Testing
@testable import BenchReport

/// Parsing of the other tools' output the report reads: readelf sections, `size`, CodecBench's
/// `RESULT` lines, `wireproof fuzz rate`'s ratio, and the runtime's line count.
@Suite struct ToolOutputParsingTests {
    static let readelfExcerpt = """
          [Nr] Name              Type            Address          Off    Size   ES Flg Lk Inf Al
          [ 0]                   NULL            0000000000000000 000000 000000 00      0   0  0
          [ 1] .interp           PROGBITS        0000000000000270 000270 00001c 00   A  0   0  1
          [10] .rela.dyn         RELA            0000000000000ea0 000ea0 0003f0 18   A  5   0  8
          [11] .rela.plt         RELA            0000000000001290 001290 000288 18  AI  5  13  8
          [12] .init             PROGBITS        0000000000001518 001518 000017 00  AX  0   0  4
          [14] .text             PROGBITS        00000000000016f0 0016f0 000b08 00  AX  0   0 16
          [24] swift5_typeref    PROGBITS        0000000000002236 002236 000025 00   A  0   0  2
          [33] .eh_frame         X86_64_UNWIND   0000000000002278 002278 000424 00   A  0   0  8
          [42] .data             PROGBITS        00000000000040d8 0030d8 000020 00  WA  0   0  8
          [43] .rodata           PROGBITS        0000000000004100 003100 00012e 00  WA  0   0 16
          [44] .bss              NOBITS          0000000000004230 00322e 0002d0 00  WA  0   0 16
          [45] .comment          PROGBITS        0000000000000000 00322e 000096 01  MS  0   0  1
        """

    @Test func allocatedFileBackedSectionsAreSummedByGroupAndBssAndCommentsLeftOut() {
        let s = SectionBreakdown.sections(readelfOutput: Self.readelfExcerpt)
        #expect(s[.code] == 0x17 + 0xb08)
        #expect(s[.relocations] == 0x3f0 + 0x288)
        #expect(s[.swiftMetadata] == 0x25)
        #expect(s[.unwind] == 0x424)
        #expect(s[.data] == 0x20 + 0x12e, "NOBITS .bss takes no file bytes")
        #expect(s[.dynamicLinking] == 0x1c, ".comment is not allocated")
    }

    @Test func unusedFacadeSymbolsAreSortedIntoKindsByTheirMangling() {
        #expect(SymbolKind(symbol: "rtm_Track_msg") == .c)
        #expect(SymbolKind(symbol: "$s12BundledProto9Rtm_TrackV7defaultACvpZWZ") == .staticLets)
        #expect(SymbolKind(symbol: "$s12BundledProto9Rtm_TrackVMn") == .metadata)
        #expect(SymbolKind(symbol: "$s12BundledProto9Rtm_TrackVWVTm") == .metadata)
        #expect(SymbolKind(symbol: "$s12BundledProto9Rtm_TrackV4nameSSvg") == .code)
        let mine = ["a": 10, "b": 20, "$s1X1YVMn": 5]
        let kinds = SectionBreakdown.kinds(of: mine, missingFrom: ["a": 10])
        #expect(kinds[.c] == 20)
        #expect(kinds[.metadata] == 5)
    }

    @Test func sizeColumnsComeFromTheLastLine() {
        let output = "   text\t   data\t    bss\t    dec\t    hex\tfilename\n  10371\t    606\t    720\t  11697\t   2db1\tSizeBaseline\n"
        let b = SectionBreakdown.berkeley(sizeOutput: output)
        #expect(b?.text == 10371 && b?.data == 606 && b?.bss == 720)
    }

    @Test func codecTimingsKeepThePacketsInPrintedOrderWithTheirSizes() {
        let output = """
            packet chat: 356 bytes, facade and oracle encodings identical
            packet user: 314 bytes, facade and oracle encodings identical
            rounds 101, batches of about 4.0 ms, operation order rotated per round
            RESULT user facade_encode median_ns 1022.6 p25_ns 892.7 p75_ns 1518.1 iterations_per_batch 4096
            RESULT chat facade_encode median_ns 2984.8 p25_ns 2888.1 p75_ns 3111.1 iterations_per_batch 2048
            RESULT chat ratio_decode median 2.34 p25 2.3 p75 2.4
            """
        let packets = CodecReport.parseTimings(output)
        #expect(packets.map(\.packet) == ["user", "chat"])
        #expect(packets[1].bytes == 356 && packets[0].bytes == 314)
        #expect(packets[1].operations["facade_encode"]?["p75_ns"] == 3111.1)
        #expect(packets[1].operations["ratio_decode"]?["median"] == 2.34)
    }

    @Test func theFuzzRateIsTheLastFixedInputRatioPrinted() {
        let output = """
            fuzz-rate: decode: every seed 200 times: 3.1 s
            fuzz-rate: fixed inputs, facade / plain C throughput = .76
            fuzz-rate: fixed inputs, facade / plain C throughput = 0.91
            """
        #expect(RatioReport.fuzzFixedRatio(output) == 0.91)
        #expect(RatioReport.fuzzFixedRatio("fuzz-rate: decode: 1 executions") == nil)
    }

    @Test func codeLinesLeaveOutBlankLinesLineCommentsAndBlockComments() {
        let source = "// header\nimport Foundation\n\n/* a\n   b */\nlet x = 1 // trailing\n/* one line */\n"
        let counted = RuntimeLines.count(source)
        #expect(counted.lines == 7)
        #expect(counted.code == 2)
    }

    @Test func numbersAreGroupedByThousandsAndRoundedAsPrintfDoes() {
        #expect(NumberFormat.grouped(1_234_567) == "1,234,567")
        #expect(NumberFormat.grouped(-1234) == "-1,234")
        #expect(NumberFormat.grouped(999) == "999")
        #expect(NumberFormat.grouped(1716.6, decimals: 0) == "1,717")
        #expect(NumberFormat.grouped(326610.94, decimals: 1) == "326,610.9")
        #expect(NumberFormat.kib(327927) == "320.2 KiB")
    }
}
