// `wirebench report codec`: CodecBench's wall-time results (its `RESULT` lines) and callgrind's
// instruction counts for the facade and oracle loops, per packet.

import Foundation

public enum CodecReport {
    /// The packets of CodecBench `time` output, in the order of their first `RESULT` line:
    /// `RESULT <packet> <operation> <name> <value> <name> <value> ...`, and the encoded size from
    /// `packet <name>: <n> bytes`.
    public static func parseTimings(_ output: String) -> [PacketTimings] {
        var packets: [PacketTimings] = []
        func index(_ name: String) -> Int {
            if let i = packets.firstIndex(where: { $0.packet == name }) { return i }
            packets.append(PacketTimings(packet: name, bytes: nil, operations: [:]))
            return packets.count - 1
        }
        for line in TextMatching.lines(output) {
            let p = TextMatching.fields(line).map(String.init)
            guard p.count >= 3, p[0] == "RESULT" else { continue }
            var values: [String: Double] = [:]
            var i = 3
            while i + 1 < p.count {
                if let v = Double(p[i + 1]) { values[p[i]] = v }
                i += 2
            }
            packets[index(p[1])].operations[p[2]] = values
        }
        let sizeLine = TextMatching.regex(#"packet (\w+): (\d+) bytes"#)
        for line in TextMatching.lines(output) {
            if let m = TextMatching.matchAtStart(sizeLine, String(line)) { packets[index(m[0])].bytes = Int(m[1]) }
        }
        return packets
    }

    /// Reads the timings and `<annotateDirectory>/<packet>.txt` listings, stores and prints them.
    public static func report(timeOutput: String, annotateDirectory: String, iterations: Int,
                              into results: inout BenchResults, print: (String) -> Void) throws {
        let codec = parseTimings(try BenchShell.read(timeOutput))
        var counts: [String: [String: Double]] = [:]
        for packet in codec {
            let path = annotateDirectory + "/\(packet.packet).txt"
            guard let listing = try? BenchShell.read(path) else { continue }
            let found = CallgrindListing.codecBenchCounts(listing, iterations: iterations)
            if !found.isEmpty { counts[packet.packet] = found }
        }
        results.codec = codec
        results.instructions = counts
        for packet in codec { printPacket(packet, counts[packet.packet] ?? [:], print: print) }
    }

    static func printPacket(_ packet: PacketTimings, _ c: [String: Double], print: (String) -> Void) {
        typealias F = NumberFormat
        let ops = packet.operations
        print("\n  packet '\(packet.packet)' (\(packet.bytes.map(String.init) ?? "?") bytes encoded)")
        print("    " + F.left("operation", 16) + F.right("median ns/op", 14) + F.right("p25", 10) + F.right("p75", 10)
              + F.right("instructions/op", 17))
        for op in ["facade_encode", "oracle_encode", "facade_decode", "oracle_decode"] {
            guard let v = ops[op] else { continue }
            let instructions = c[op].flatMap { $0 != 0 ? F.right(F.grouped($0, decimals: 0), 17) : nil } ?? F.right("n/a", 17)
            let cell = { (key: String) in F.grouped(v[key] ?? 0, decimals: 1) }
            print("    " + F.left(op, 16) + F.right(cell("median_ns"), 14) + F.right(cell("p25_ns"), 10)
                  + F.right(cell("p75_ns"), 10) + instructions)
        }
        for kind in ["encode", "decode"] {
            guard let r = ops["ratio_\(kind)"], !r.isEmpty else { continue }
            var line = "    \(kind): oracle/facade wall-time ratio \(F.fixed(r["median"] ?? 0, 2)) (median of per-round ratios; "
                + "p25 \(F.fixed(r["p25"] ?? 0, 2)), p75 \(F.fixed(r["p75"] ?? 0, 2)))"
            if let facade = c["facade_\(kind)"], let oracle = c["oracle_\(kind)"], oracle / facade != 0 {
                line += "; instruction ratio \(F.fixed(oracle / facade, 2))"
            }
            print(line)
        }
        if let layouts = c["layout_builds"], let oracle = c["oracle_decode"] {
            print("    (of the oracle's decode instructions, \(F.fixed(100 * layouts / oracle, 0))% build "
                  + "MessageLayouts: DynamicMessage.merge makes a new LayoutCache for every call)")
        }
    }
}
