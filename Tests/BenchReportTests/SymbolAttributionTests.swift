import Testing
@testable import BenchReport

/// Symbol attribution of `nm -S` output into the shipped layer's groups, on an excerpt of a real
/// SizePacket listing (full dead strip).
@Suite struct SymbolAttributionTests {
    static let nmExcerpt = """
        0000000000012fe0 0000000000000022 T _start
        0000000000013000 0000000000000180 T pb_decode_noinit
        0000000000013180 0000000000000040 t pb_read
        000000000004ab88 0000000000000030 D rtm_DataPacket_msg
        000000000004abb8 0000000000000030 D rtm_ChatMessage_msg
        0000000000018980 000000000000002d t $s12BundledProto021Rtm_StreamHeader_TextE10_OperationVACSQAAWl
        0000000000020000 0000000000000100 t $s13NanopbRuntime0A3MsgV6encodeSays5UInt8VGyFSo15_rtm_DataPacketV_Tg5
        0000000000024930 00000000000000fc t $s13NanopbRuntime0A11DeviceLimitV23__derived_struct_equalsySbAC_ACtFZTf4nnd_n
        0000000000029810 0000000000000359 T SizePacket_main
        0000000000058d98 0000000000000010 b $s10SizePacket4textSSvp
        0000000000027f40 00000000000000a8 t $ss11_StringGutsV27_slowEnsureMatchingEncodingySS5IndexVAEF
        0000000000027f40 00000000000000a8 t $ss11_StringGutsV27_slowEnsureMatchingEncodingySS5IndexVAEFTm
        0000000000030000 0000000000000000 T zero_sized_marker
        0000000000030010 0000000000000008 W weak_helper
        0000000000029f00 r
        """

    static let attributor = SymbolAttributor(
        nanopbSymbols: ["pb_decode_noinit", "pb_read"],
        generatedSymbols: ["rtm_DataPacket_msg", "rtm_ChatMessage_msg"])

    @Test func cSymbolsGoToTheObjectFilesThatDefineThem() {
        #expect(Self.attributor.group(of: "pb_read", program: "SizePacket") == .nanopbC)
        #expect(Self.attributor.group(of: "rtm_DataPacket_msg", program: "SizePacket") == .generatedC)
        #expect(Self.attributor.group(of: "_start", program: "SizePacket") == .other)
    }

    @Test func swiftSymbolsAreToldApartByTheModulesAndStructsTheirManglingNames() {
        let a = Self.attributor
        #expect(a.group(of: "$s12BundledProto021Rtm_StreamHeader_TextE10_OperationVACSQAAWl", program: "SizePacket") == .facades)
        #expect(a.group(of: "$s13NanopbRuntime0A3MsgV6encodeSays5UInt8VGyFSo15_rtm_DataPacketV_Tg5", program: "SizePacket") == .facadeGenerics)
        #expect(a.group(of: "$s13NanopbRuntime0A11DeviceLimitV23__derived_struct_equalsySbAC_ACtFZTf4nnd_n", program: "SizePacket") == .nanopbRuntime)
        #expect(a.group(of: "$s10SizePacket4textSSvp", program: "SizePacket") == .program)
        #expect(a.group(of: "SizePacket_main", program: "SizePacket") == .program)
        #expect(a.group(of: "$ss11_StringGutsV27_slowEnsureMatchingEncodingySS5IndexVAEF", program: "SizePacket") == .otherSwift)
    }

    /// The bench package's own targets, read from the manifest arguments step 2 passes, so a
    /// module the package gains or the attributor drops shows here.
    @Test func everySchemaModuleOfTheBenchPackageIsAttributed() {
        let arguments = ScratchPackage.manifestTargets
        let targets = zip(arguments, arguments.dropFirst()).filter { $0.0 == "--target" }.map { $0.1.split(separator: "=") }
        let cModules = targets.filter { $0[1].contains("wireproof:CNanopb") }.map { String($0[0]) }
        let facadeModules = targets.filter { $0[1].contains("wireproof:NanopbRuntime") }.map { String($0[0]) }
        #expect(cModules == ["PrunedOneC", "PrunedPacketC"])
        #expect(SymbolAttributor.schemaCModules == ["BundledProtoC"] + cModules)
        #expect(SymbolAttributor.facadeModules == ["BundledProto"] + facadeModules)
    }

    @Test func aSchemaStructMatchesOnlyWhereItsManglingEnds() {
        let a = SymbolAttributor(nanopbSymbols: [], generatedSymbols: ["rtm_Data_msg"])
        #expect(a.group(of: "$s13NanopbRuntime0A3MsgVySo15_rtm_DataPacketVG", program: "P") == .nanopbRuntime)
        #expect(a.group(of: "$s13NanopbRuntime0A3MsgVySo9_rtm_DataVG", program: "P") == .facadeGenerics)
    }

    @Test func attributionSumsSizesOncePerAddressAndSkipsUnsizedAndWeakSymbols() {
        let groups = Self.attributor.attribute(nmOutput: Self.nmExcerpt, program: "SizePacket")
        #expect(groups[.nanopbC] == 0x180 + 0x40)
        #expect(groups[.generatedC] == 0x60)
        #expect(groups[.facades] == 0x2d)
        #expect(groups[.facadeGenerics] == 0x100)
        #expect(groups[.nanopbRuntime] == 0xfc)
        #expect(groups[.program] == 0x359 + 0x10)
        #expect(groups[.otherSwift] == 0xa8, "the alias at the same address and size counts once")
        #expect(groups[.other] == 0x22, "the zero-sized and the weak symbol count nothing")
        #expect(groups[.notInSymbol] == 0)
    }

    @Test func definedNamesAreTheThirdFieldOfEachNmLine() {
        let names = SymbolAttributor.definedNames(nmOutput: "0000000000000000 T pb_decode\n0000000000000010 r .L.str\n                 U memcpy\n")
        #expect(names == ["pb_decode", ".L.str"])
    }
}
