// `wirebench report sizes`: strips each probe of each build configuration, reads `size`, attributes
// `nm -S` of the unstripped binary to groups, splits text+data by section, derives the per-message
// and per-program figures and prints them.

import Foundation

/// The size probes and what they say.
public enum SizeReport {
    /// The probe executables of the bench package, in the report's order.
    public static let probes = ["SizeBaseline", "SizePacket", "SizePacketPruned", "SizeOne", "SizeOnePruned", "SizeAll"]

    /// Measures every probe of `configurations` (name, SwiftPM scratch path), keeping stripped
    /// copies in `outDirectory`; merges the figures into `results` and prints them.
    public static func measure(_ configurations: [(name: String, build: String)], outDirectory: String,
                               allCount: Int, oneCount: Int, into results: inout BenchResults,
                               print: (String) -> Void) throws {
        results.messagesAll = allCount
        results.messagesOnePruned = oneCount
        var sizes: [String: ConfigurationSizes] = [:]
        for (config, build) in configurations {
            let release = build + "/release"
            let attributor = SymbolAttributor(
                nanopbSymbols: try BinaryTools.definedSymbols(objectsUnder: release + "/CNanopb.build"),
                generatedSymbols: try SymbolAttributor.schemaCSymbols(release: release))
            var executables: [String: ExecutableSize] = [:]
            for exe in probes {
                let binary = release + "/" + exe
                let stripped = outDirectory + "/\(config)-\(exe)"
                _ = try BinaryTools.run("strip", ["-o", stripped, binary])
                guard let b = SectionBreakdown.berkeley(sizeOutput: try BinaryTools.run("size", [stripped])) else {
                    throw BenchReportError.missingFigure("size \(stripped): no text/data/bss line")
                }
                var groups = attributor.attribute(nmOutput: try BinaryTools.run("nm", ["-S", "--defined-only", binary]), program: exe)
                groups[.notInSymbol] = b.text + b.data - groups.values.reduce(0, +)
                let sections = SectionBreakdown.sections(readelfOutput: try BinaryTools.run("readelf", ["-SW", stripped]))
                executables[exe] = ExecutableSize(
                    file: try BinaryTools.fileSize(stripped), text: b.text, data: b.data, bss: b.bss, alloc: b.text + b.data,
                    groups: Dictionary(uniqueKeysWithValues: groups.map { ($0.key.rawValue, $0.value) }),
                    sections: Dictionary(uniqueKeysWithValues: sections.map { ($0.key.rawValue, $0.value) }))
            }
            let one = SectionBreakdown.sizedSymbols(nmOutput: try BinaryTools.run("nm", ["-S", "--defined-only", release + "/SizeOne"]))
            let pruned = SectionBreakdown.sizedSymbols(nmOutput: try BinaryTools.run("nm", ["-S", "--defined-only", release + "/SizeOnePruned"]))
            let kinds = SectionBreakdown.kinds(of: one, missingFrom: pruned)
            sizes[config] = ConfigurationSizes(executables: executables,
                                               unusedKinds: Dictionary(uniqueKeysWithValues: kinds.map { ($0.key.rawValue, $0.value) }))
        }
        results.sizes = sizes
        var figures: [String: SizeFigures] = [:]
        for (config, _) in configurations {
            figures[config] = try derive(sizes[config]!, allCount: allCount, oneCount: oneCount)
        }
        results.sizeFigures = figures
        SizeReportText.print(configurations.map(\.name), sizes: sizes, figures: figures,
                             allCount: allCount, oneCount: oneCount, print: print)
    }

    /// The per-message and per-program figures of one configuration's probes:
    /// used = (SizeAll − SizeOne) / (messages − 1); unused = (SizeOne − SizeOnePruned) / (messages −
    /// pruned messages); the shipped layer = SizePacket(Pruned) − SizeBaseline.
    public static func derive(_ s: ConfigurationSizes, allCount: Int, oneCount: Int) throws -> SizeFigures {
        // Both divisors must be positive, or the figures are NaN or infinite and only the JSON
        // encoder would notice, naming neither count.
        guard allCount > 1, oneCount < allCount else {
            throw BenchReportError.missingFigure(
                "per-message sizes need more than one message and fewer in the pruned schema (messages \(allCount), pruned \(oneCount))")
        }
        func probe(_ name: String) throws -> ExecutableSize {
            guard let e = s.executables[name] else { throw BenchReportError.missingFigure("no size of probe \(name)") }
            return e
        }
        let all = try probe("SizeAll"), one = try probe("SizeOne"), onePruned = try probe("SizeOnePruned")
        let packet = try probe("SizePacket"), packetPruned = try probe("SizePacketPruned"), base = try probe("SizeBaseline")
        let facade = { (e: ExecutableSize) in e.group(.facades) + e.group(.facadeGenerics) }
        let used = Double(allCount - 1), unused = Double(allCount - oneCount)
        return SizeFigures(
            usedPerMessageAlloc: Double(all.alloc - one.alloc) / used,
            usedPerMessageFacade: Double(facade(all) - facade(one)) / used,
            usedPerMessageProgram: Double(all.group(.program) - one.group(.program)) / used,
            unusedPerMessageAlloc: Double(one.alloc - onePruned.alloc) / unused,
            unusedPerMessageFacade: Double(facade(one) - facade(onePruned)) / unused,
            onePrunedFacade: facade(onePruned),
            packetAlloc: packet.alloc - base.alloc, packetFile: packet.file - base.file,
            packetPrunedAlloc: packetPruned.alloc - base.alloc, packetPrunedFile: packetPruned.file - base.file)
    }
}
