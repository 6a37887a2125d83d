import Testing
@testable import BenchReport

/// The split of a loop-only callgrind listing into nanopb, its allocator and the rest, and the
/// reason line a missed goal gets from it (excerpts of real listings of the chat packet, 300
/// iterations).
@Suite struct MissedGoalReasonTests {
    static let facadeLoopsOnly = """
        10,519,980 (100.0%)  PROGRAM TOTALS
         5,674,243 (53.94%)  ???:$s10CodecBench16loopFacadeDecodeySiSays5UInt8VG_SitF [/tmp/wp-bench/out/CodecBench.nodebug]
         4,845,737 (46.06%)  ???:$s10CodecBench16loopFacadeEncodeySi13NanopbRuntime0F3MsgVySo15_rtm_DataPacketVAgC0F7Storage12BundledProtoyHCg_G_SitF [x]
         4,335,600 (41.21%)  ???:wp_pb_encode [/tmp/wp-bench/out/CodecBench.nodebug]
         3,323,414 (31.59%)  ???:wp_pb_decode [/tmp/wp-bench/out/CodecBench.nodebug]
         2,091,600 (19.88%)  ???:wp_pb_release [/tmp/wp-bench/out/CodecBench.nodebug]
         1,957,500 (18.61%)  ???:wp_pb_encode'2 [/tmp/wp-bench/out/CodecBench.nodebug]
           508,214 ( 4.83%)  ???:wp_pb_counted_realloc [/tmp/wp-bench/out/CodecBench.nodebug]
           498,900 ( 4.74%)  ???:wp_pb_counted_free [/tmp/wp-bench/out/CodecBench.nodebug]
            85,800 ( 0.82%)  ???:wp_pb_decode_tag [/tmp/wp-bench/out/CodecBench.nodebug]
        """
    static let cLoopsOnly = """
        10,701,475 (100.0%)  PROGRAM TOTALS
         5,396,550 (50.43%)  ???:loop_decode [/tmp/wp-bench/out/ratios/CodecC.nodebug]
         5,304,925 (49.57%)  ???:loop_encode [/tmp/wp-bench/out/ratios/CodecC.nodebug]
         5,246,400 (49.03%)  ???:wp_pb_encode [/tmp/wp-bench/out/ratios/CodecC.nodebug]
         3,244,284 (30.32%)  ???:wp_pb_decode [/tmp/wp-bench/out/ratios/CodecC.nodebug]
         2,091,600 (19.54%)  ???:wp_pb_get_encoded_size [/tmp/wp-bench/out/ratios/CodecC.nodebug]
         2,066,400 (19.31%)  ???:wp_pb_release [/tmp/wp-bench/out/ratios/CodecC.nodebug]
           480,684 ( 4.49%)  ???:wp_pb_counted_realloc [/tmp/wp-bench/out/ratios/CodecC.nodebug]
           437,100 ( 4.08%)  ???:wp_pb_counted_free [/tmp/wp-bench/out/ratios/CodecC.nodebug]
        """

    @Test func decodeSplitsIntoNanopbsEntryPointsTheirAllocatorAndTheSwiftLayer() throws {
        let split = try #require(OperationSplit.read(Self.facadeLoopsOnly, kind: "decode", loop: 5_674_243.0 / 300, iterations: 300))
        #expect(split.nanopb == (3_323_414.0 + 2_091_600) / 300, "decode and release; not wp_pb_decode_tag, not a primed recursion line")
        #expect(split.allocator == (508_214.0 + 498_900) / 300)
        #expect(abs(split.outsideNanopb - 259_229.0 / 300) < 1e-9)
    }

    @Test func encodeCountsSizingAndEncodingButNoAllocator() throws {
        let split = try #require(OperationSplit.read(Self.cLoopsOnly, kind: "encode", loop: 5_304_925.0 / 300, iterations: 300))
        #expect(split.nanopb == (5_246_400.0 + 2_091_600) / 300)
        #expect(split.allocator == 0)
    }

    @Test func onlyAListingCollectedInsideTheLoopsIsSplit() {
        #expect(OperationSplit.collectedInLoopsOnly(Self.cLoopsOnly, loopsTotal: 5_396_550 + 5_304_925))
        // The same loops in a listing of the whole program (set-up and the oracle counted too).
        let wholeProgram = Self.facadeLoopsOnly.replacingOccurrences(of: "10,519,980 (100.0%)  PROGRAM TOTALS",
                                                                     with: "85,214,392 (100.0%)  PROGRAM TOTALS")
        #expect(!OperationSplit.collectedInLoopsOnly(wholeProgram, loopsTotal: 5_674_243 + 4_845_737))
        #expect(!OperationSplit.collectedInLoopsOnly("no totals here", loopsTotal: 1))
    }

    @Test func aMissedGoalAgainstCNamesBothSplitsAndTheRemedy() throws {
        let facade = try #require(OperationSplit.read(Self.facadeLoopsOnly, kind: "decode", loop: 5_674_243.0 / 300, iterations: 300))
        let c = try #require(OperationSplit.read(Self.cLoopsOnly, kind: "decode", loop: 5_396_550.0 / 300, iterations: 300))
        let packet = PacketInstructions(packet: "chat", bytes: 356, operations: ["decode": ["facade": facade.loop, "c": c.loop]],
                                        splits: ["decode": ["facade": facade, "c": c]])
        let text = try #require(MissedGoalReason.text(kind: "decode", program: .c, packet: packet))
        #expect(text.hasPrefix("facades 18,914/op = nanopb 18,050 (allocator 3,357) + Swift layer 864; "
            + "nanopb C 17,988/op = nanopb 17,702 (allocator 3,059) + loop 286. Would take: allocating the C struct"), "\(text)")
    }

    @Test func aMissedGoalAgainstSwiftProtobufComparesNanopbsShareWithItsWholeOperation() throws {
        let facade = try #require(OperationSplit.read(Self.facadeLoopsOnly, kind: "encode", loop: 4_845_737.0 / 300, iterations: 300))
        let packet = PacketInstructions(packet: "chat", bytes: 356, operations: ["encode": ["facade": facade.loop, "swiftprotobuf": 8_590]],
                                        splits: ["encode": ["facade": facade]])
        let text = try #require(MissedGoalReason.text(kind: "encode", program: .swiftprotobuf, packet: packet))
        #expect(text.hasPrefix("facades 16,152/op = nanopb 14,452 + Swift layer 1,700; SwiftProtobuf 8,590/op; "
            + "nanopb's share alone is 1.68x of it. Would take: a field iterator"), "\(text)")
    }

    @Test func aResultsFileWithoutSplitsGivesNoReasonRatherThanAGuess() {
        let packet = PacketInstructions(packet: "chat", bytes: 356, operations: ["decode": ["facade": 19_000, "c": 18_000]])
        #expect(MissedGoalReason.text(kind: "decode", program: .c, packet: packet) == nil)
    }

    @Test func theSummaryListsAReasonForEachMissedGoalAndNoneForAMetOne() throws {
        let facade = try #require(OperationSplit.read(Self.facadeLoopsOnly, kind: "decode", loop: 5_674_243.0 / 300, iterations: 300))
        let c = try #require(OperationSplit.read(Self.cLoopsOnly, kind: "decode", loop: 5_396_550.0 / 300, iterations: 300))
        var r = SummaryTableTests.results(facadeDecode: facade.loop, cDecode: c.loop)
        for i in r.ratios!.packets.indices { r.ratios!.packets[i].splits = ["decode": ["facade": facade, "c": c]] }
        let rows = GoalRows.rows(r)
        let missed = try #require(rows.first { $0.figure.hasPrefix("Decode ÷ nanopb C, chat") })
        #expect(missed.goal == "≤ 1.05: not met" && missed.reason.hasPrefix("facades 18,914/op"))
        #expect(rows.first { $0.figure.hasPrefix("Decode ÷ SwiftProtobuf, chat") }?.reason == "", "met: no reason")
        let markdown = SummaryTable.markdownLines(rows)
        #expect(markdown.contains("- Decode ÷ nanopb C, chat packet, 356 B: " + missed.reason))
    }

    @Test func theRemedyAddressesTheSideWhereTheGapLies() throws {
        let facade = try #require(OperationSplit.read(Self.facadeLoopsOnly, kind: "decode", loop: 5_674_243.0 / 300, iterations: 300))
        // nanopb's share (18,050) under SwiftProtobuf's whole decode: the Swift layer is the gap.
        let close = PacketInstructions(packet: "chat", bytes: 356, operations: ["decode": ["facade": facade.loop, "swiftprotobuf": 18_480]],
                                       splits: ["decode": ["facade": facade]])
        #expect(try #require(MissedGoalReason.text(kind: "decode", program: .swiftprotobuf, packet: close)).contains("Would take: allocating the C struct"))
        // nanopb's share alone over it: nanopb is.
        let far = PacketInstructions(packet: "chat", bytes: 356, operations: ["decode": ["facade": facade.loop, "swiftprotobuf": 9_000]],
                                     splits: ["decode": ["facade": facade]])
        #expect(try #require(MissedGoalReason.text(kind: "decode", program: .swiftprotobuf, packet: far)).contains("Would take: fewer heap blocks"))
    }
}
