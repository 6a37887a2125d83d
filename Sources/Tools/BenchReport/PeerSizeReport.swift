// `wirebench report peer-sizes`: the SizePacket source built against SwiftProtobuf, measured as the
// facades' probes are (stripped copy, `size` text+data, minus the same SizeBaseline).

import Foundation

public enum PeerSizeReport {
    /// Goals of the shipped layer's size against SwiftProtobuf's: all types, and pruned to use.
    public static let goalAll = 0.2
    public static let goalPruned = 0.1

    /// Measures each (configuration, executable); needs `sizes` of the same run in `results`.
    public static func measure(_ builds: [(name: String, executable: String)], outDirectory: String,
                               into results: inout BenchResults, print: (String) -> Void) throws {
        var peer: [String: PeerSize] = [:]
        print("\n  SwiftProtobuf 1.38.1: the same SizePacket source against protoc-gen-swift's code, vs SizeBaseline")
        for (config, binary) in builds {
            let stripped = outDirectory + "/\(config)-SizePacketSwiftProtobuf"
            _ = try BinaryTools.run("strip", ["-o", stripped, binary])
            guard let b = SectionBreakdown.berkeley(sizeOutput: try BinaryTools.run("size", [stripped])) else {
                throw BenchReportError.missingFigure("size \(stripped): no text/data/bss line")
            }
            guard let base = results.sizes?[config]?.executables["SizeBaseline"], let facades = results.sizeFigures?[config] else {
                throw BenchReportError.missingFigure("no \(config) SizeBaseline in the results: run `report sizes` first")
            }
            let added = b.text + b.data - base.alloc
            let p = PeerSize(alloc: b.text + b.data, added: added, fileAdded: try BinaryTools.fileSize(stripped) - base.file,
                             ratioAll: Double(facades.packetAlloc) / Double(added),
                             ratioPruned: Double(facades.packetPrunedAlloc) / Double(added))
            peer[config] = p
            print("    [\(config)] SwiftProtobuf +\(NumberFormat.grouped(added)) B text+data (\(NumberFormat.kib(added))); "
                  + "facades ÷ SwiftProtobuf: all types \(NumberFormat.fixed(p.ratioAll, 2)) (goal <= \(goalAll)), "
                  + "pruned \(NumberFormat.fixed(p.ratioPruned, 2)) (goal <= \(goalPruned))")
        }
        results.swiftProtobufSizes = peer
    }
}
