import Testing
@testable import BenchReport

/// Reading loop costs out of `callgrind_annotate --inclusive=yes` listings (excerpts of real ones).
@Suite struct CallgrindListingTests {
    static let facadeListing = """
        --------------------------------------------------------------------------------
        Ir                   file:function
        --------------------------------------------------------------------------------
        85,214,392 (100.0%)  ???:0x000000000001ab70 [/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2]
        80,275,683 (94.20%)  ???:CodecBench_main [/tmp/wp-bench/out/CodecBench.nodebug]
        43,347,000 (50.87%)  ???:$s10CodecBench16loopOracleDecodeySiSays5UInt8VG_SitF [/tmp/wp-bench/out/CodecBench.nodebug]
         7,684,747 ( 9.02%)  ???:$s10CodecBench16loopFacadeEncodeySi13NanopbRuntime0F3MsgVySo15_rtm_DataPacketVAgC0F7Storage12BundledProtoyHCg_G_SitF [/tmp/wp-bench/out/CodecBench.nodebug]
         6,235,564 ( 7.32%)  ???:$s10CodecBench16loopFacadeDecodeySiSays5UInt8VG_SitF [/tmp/wp-bench/out/CodecBench.nodebug]
         2,630,422 ( 3.09%)  ???:$s11ProtoOracle13MessageLayoutC_2inAC0A6Schema0cF0V_AE0F3SetVtcfc [/tmp/wp-bench/out/CodecBench.nodebug]
        """
    static let cListing = """
         6,570,025 (43.95%)  ???:loop_encode [/tmp/wp-bench/out/ratios/CodecC.nodebug]
         5,396,550 (36.10%)  ???:loop_decode [/tmp/wp-bench/out/ratios/CodecC.nodebug]
         5,000,000 (30.00%)  ???:loop_decode_helper [/tmp/wp-bench/out/ratios/CodecC.nodebug]
        """

    @Test func eachProgramsLoopIsFoundByItsOwnSpelling() {
        #expect(CallgrindListing.inclusive(Self.facadeListing, matching: CodecProgram.facade.loopPattern("encode")) == 7_684_747)
        #expect(CallgrindListing.inclusive(Self.facadeListing, matching: CodecProgram.facade.loopPattern("decode")) == 6_235_564)
        #expect(CallgrindListing.inclusive(Self.cListing, matching: CodecProgram.c.loopPattern("decode")) == 5_396_550)
        #expect(CallgrindListing.inclusive(Self.cListing, matching: CodecProgram.full.loopPattern("encode")) == 6_570_025)
        let swiftProtobuf = " 7,169,037 (29.15%)  ???:$s25codec_speed_swiftprotobuf10loopDecodeySiSays5UInt8VG_SitF [x]"
        #expect(CallgrindListing.inclusive(swiftProtobuf, matching: CodecProgram.swiftprotobuf.loopPattern("decode")) == 7_169_037)
    }

    @Test func aLoopWhoseManglingCarriesArgumentLabelsIsKnownByItsNameAlone() {
        let listing = " 9,000 ( 1.00%)  ???:$s10CodecBench16loopOracleEncode5countySi_SitF [x]"
        #expect(CallgrindListing.codecBenchCounts(listing, iterations: 3)["oracle_encode"] == 3000)
    }

    @Test func aMissingLoopIsNilNotZero() {
        #expect(CallgrindListing.inclusive(Self.cListing, matching: CodecProgram.facade.loopPattern("decode")) == nil)
    }

    @Test func codecBenchLoopsBecomeInstructionsPerIterationByOperation() {
        let counts = CallgrindListing.codecBenchCounts(Self.facadeListing, iterations: 300)
        #expect(counts["facade_encode"] == 7_684_747.0 / 300)
        #expect(counts["facade_decode"] == 6_235_564.0 / 300)
        #expect(counts["oracle_decode"] == 43_347_000.0 / 300)
        #expect(counts["oracle_encode"] == nil)
        #expect(counts["layout_builds"] == 2_630_422.0 / 300)
    }
}
