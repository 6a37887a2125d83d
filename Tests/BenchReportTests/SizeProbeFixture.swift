// One build configuration's six size probes with round, hand-picked figures, so the reports
// built from them can be checked against numbers worked out by hand. Keys absent from a
// probe's groups or sections stand for groups the probe has no bytes in.

@testable import BenchReport

enum SizeProbeFixture {
    /// Messages in the schema, and in the schema pruned to SizeOne's message: used figures divide
    /// by 11 − 1 = 10, unused ones by 11 − 3 = 8.
    static let allCount = 11
    static let oneCount = 3

    static func probe(file: Int, text: Int, data: Int, groups: [SymbolGroup: Int] = [:],
                      sections: [SectionGroup: Int] = [:]) -> ExecutableSize {
        ExecutableSize(file: file, text: text, data: data, bss: 64, alloc: text + data,
                       groups: Dictionary(uniqueKeysWithValues: groups.map { ($0.key.rawValue, $0.value) }),
                       sections: Dictionary(uniqueKeysWithValues: sections.map { ($0.key.rawValue, $0.value) }))
    }

    static let sizes = ConfigurationSizes(
        executables: [
            "SizeBaseline": probe(file: 20_000, text: 10_000, data: 1_000,
                                  groups: [.program: 500, .other: 9_000, .notInSymbol: 1_500],
                                  sections: [.code: 4_000, .unwind: 1_500, .relocations: 500, .data: 2_000, .dynamicLinking: 3_000]),
            "SizePacket": probe(file: 120_000, text: 90_000, data: 5_000,
                                groups: [.nanopbC: 20_000, .generatedC: 30_000, .nanopbRuntime: 10_000, .facades: 15_000,
                                         .facadeGenerics: 5_000, .program: 1_000, .otherSwift: 500, .other: 250,
                                         .notInSymbol: 13_250],
                                sections: [.code: 60_000, .unwind: 8_000, .relocations: 3_000, .data: 15_000,
                                           .swiftMetadata: 6_000, .dynamicLinking: 3_000]),
            "SizePacketPruned": probe(file: 60_000, text: 45_000, data: 3_000,
                                      groups: [.nanopbC: 20_000, .generatedC: 4_000, .nanopbRuntime: 10_000, .facades: 7_000,
                                               .facadeGenerics: 1_000, .program: 1_000, .notInSymbol: 5_000],
                                      sections: [.code: 30_000, .unwind: 4_000, .relocations: 1_500, .data: 7_000,
                                                 .swiftMetadata: 2_500, .dynamicLinking: 3_000]),
            "SizeOne": probe(file: 70_000, text: 50_000, data: 4_000,
                             groups: [.facades: 30_000, .facadeGenerics: 20_000, .program: 2_000],
                             sections: [.code: 30_000, .unwind: 5_000, .relocations: 1_000, .data: 10_000,
                                        .swiftMetadata: 3_000, .dynamicLinking: 2_000]),
            "SizeOnePruned": probe(file: 58_000, text: 43_000, data: 2_400,
                                   groups: [.facades: 12_000, .facadeGenerics: 18_000, .program: 1_900],
                                   sections: [.code: 26_000, .unwind: 4_200, .relocations: 960, .data: 9_200,
                                              .swiftMetadata: 2_200]),
            "SizeAll": probe(file: 1_500_000, text: 1_200_000, data: 34_567,
                             groups: [.facades: 400_000, .facadeGenerics: 50_000, .program: 3_000],
                             sections: [.code: 600_000, .unwind: 50_000, .relocations: 10_000, .data: 100_000,
                                        .swiftMetadata: 30_000]),
        ],
        unusedKinds: [SymbolKind.metadata.rawValue: 8_000, SymbolKind.staticLets.rawValue: 800,
                      SymbolKind.code.rawValue: 4_000])

    /// What `SizeReport.derive` must make of `sizes`, worked out by hand:
    /// used alloc (1,234,567 − 54,000) / 10; used facades ((400,000 + 50,000) − (30,000 + 20,000)) / 10;
    /// used program (3,000 − 2,000) / 10; unused alloc (54,000 − 45,400) / 8; unused facades
    /// (50,000 − 30,000) / 8; SizeOnePruned's facades 12,000 + 18,000; the packet probes minus the
    /// baseline's 11,000 text+data and 20,000 file bytes.
    static let figures = SizeFigures(
        usedPerMessageAlloc: 118_056.7, usedPerMessageFacade: 40_000, usedPerMessageProgram: 100,
        unusedPerMessageAlloc: 1_075, unusedPerMessageFacade: 2_500, onePrunedFacade: 30_000,
        packetAlloc: 84_000, packetFile: 100_000, packetPrunedAlloc: 37_000, packetPrunedFile: 40_000)
}
