// `wirebench report summary`: one table of every figure of the run — the goal rows first (each
// with its goal and whether it is met), then the runtime's lines, the size figures per
// configuration and the facade-vs-oracle timings — printed, and written into docs/measurements.md.

import Foundation

public enum SummaryTable {
    /// The build configurations in the summary's order, with their labels.
    static let configurations = [("stripped", "full dead strip"), ("default", "SwiftPM default")]

    /// Every row of the summary table.
    public static func rows(_ r: BenchResults) -> [SummaryRow] {
        var rows = GoalRows.rows(r)
        if let l = r.runtimeLines {
            rows.append(SummaryRow(figure: "NanopbRuntime source lines (code lines)",
                                   value: "\(NumberFormat.grouped(l.lines)) (\(NumberFormat.grouped(l.codeLines))) in \(l.files) files",
                                   goal: "", method: "`wc -l Sources/Shipped/NanopbRuntime/*.swift`; code = not blank, not only a comment"))
        }
        let n = r.messagesAll ?? 0
        for (config, label) in configurations {
            guard let d = r.sizeFigures?[config] else { continue }
            let b0 = { (x: Double) in NumberFormat.grouped(x, decimals: 0) }
            if config != "stripped" {  // the stripped figure is a goal row
                rows.append(SummaryRow(figure: "Facade bytes per used message (\(label))",
                                       value: "\(b0(d.usedPerMessageFacade)) B (whole binary \(b0(d.usedPerMessageAlloc)) B)", goal: "",
                                       method: "(SizeAll - SizeOne) / \(n - 1), facade-attributed symbols; whole binary includes call sites"))
            }
            rows.append(SummaryRow(figure: "Facade bytes per unused message still linked (\(label))",
                                   value: "\(b0(d.unusedPerMessageFacade)) B (whole binary \(b0(d.unusedPerMessageAlloc)) B)", goal: "",
                                   method: "(SizeOne all types - SizeOne pruned) / \(n - (r.messagesOnePruned ?? 0))"))
            rows.append(SummaryRow(figure: "Shipped layer, bundled schema, all types (\(label))",
                                   value: "\(NumberFormat.grouped(d.packetAlloc)) B text+data (\(NumberFormat.kib(d.packetAlloc))); "
                                       + "file +\(NumberFormat.grouped(d.packetFile)) B",
                                   goal: "", method: "SizePacket - SizeBaseline, stripped"))
            rows.append(SummaryRow(figure: "Shipped layer, facades pruned to use (\(label))",
                                   value: "\(NumberFormat.grouped(d.packetPrunedAlloc)) B text+data (\(NumberFormat.kib(d.packetPrunedAlloc))); "
                                       + "file +\(NumberFormat.grouped(d.packetPrunedFile)) B",
                                   goal: "", method: "SizePacketPruned - SizeBaseline, stripped"))
            if let p = r.swiftProtobufSizes?[config] {
                rows.append(SummaryRow(
                    figure: "SwiftProtobuf 1.38.1 in the same program (\(label))",
                    value: "\(NumberFormat.grouped(p.added)) B text+data (\(NumberFormat.kib(p.added))); facades ÷ SwiftProtobuf: "
                        + "all types \(NumberFormat.fixed(p.ratioAll, 2)), pruned \(NumberFormat.fixed(p.ratioPruned, 2))",
                    goal: "all types " + Goal.atMost(PeerSizeReport.goalAll).verdict(p.ratioAll)
                        + "; pruned " + Goal.atMost(PeerSizeReport.goalPruned).verdict(p.ratioPruned),
                    method: "the SizePacket source against protoc-gen-swift's code - SizeBaseline, stripped"))
            }
        }
        // By packet name, as the summary always listed them.
        for packet in (r.codec ?? []).sorted(by: { $0.packet < $1.packet }) {
            for kind in ["encode", "decode"] {
                guard let f = packet.operations["facade_\(kind)"], let o = packet.operations["oracle_\(kind)"],
                      let ratio = packet.operations["ratio_\(kind)"], !f.isEmpty, !o.isEmpty, !ratio.isEmpty else { continue }
                var instructions = ""
                if let c = r.instructions?[packet.packet], let fc = c["facade_\(kind)"], let oc = c["oracle_\(kind)"] {
                    instructions = "; instructions \(NumberFormat.grouped(fc, decimals: 0)) vs \(NumberFormat.grouped(oc, decimals: 0)) "
                        + "(x\(NumberFormat.fixed(oc / fc, 2)))"
                }
                rows.append(SummaryRow(
                    figure: "\(kind.prefix(1).uppercased() + kind.dropFirst()) \(packet.packet) DataPacket "
                        + "(\(packet.bytes.map(String.init) ?? "?") B): facade vs oracle",
                    value: "\(NumberFormat.grouped(f["median_ns"] ?? 0, decimals: 0)) vs \(NumberFormat.grouped(o["median_ns"] ?? 0, decimals: 0)) "
                        + "ns/op, oracle/facade x\(NumberFormat.fixed(ratio["median"] ?? 0, 2))\(instructions)",
                    goal: "",
                    method: "median of interleaved rounds (p25-p75 of ratio \(NumberFormat.fixed(ratio["p25"] ?? 0, 2))-"
                        + "\(NumberFormat.fixed(ratio["p75"] ?? 0, 2)))"))
            }
        }
        return rows
    }

    /// The rows as the terminal's aligned text.
    public static func terminalLines(_ rows: [SummaryRow]) -> [String] {
        let w0 = max(6, rows.map(\.figure.count).max() ?? 0)
        let w1 = max(5, rows.map(\.value.count).max() ?? 0)
        let w2 = max(4, rows.map(\.goal.count).max() ?? 0)
        let line = { (a: String, b: String, c: String, d: String) in
            "  \(NumberFormat.left(a, w0)) | \(NumberFormat.left(b, w1)) | \(NumberFormat.left(c, w2)) | \(d)"
        }
        var lines = [line("figure", "value", "goal", "method")]
        lines.append("  " + String(repeating: "-", count: w0) + "-+-" + String(repeating: "-", count: w1) + "-+-"
                     + String(repeating: "-", count: w2) + "-+-------")
        lines += rows.map { line($0.figure, $0.value, $0.goal, $0.method) }
        return lines + missedGoalLines(rows).map { "  " + $0 }
    }

    /// After the table: each goal not met with its measured reason and what it would take.
    static func missedGoalLines(_ rows: [SummaryRow]) -> [String] {
        let missed = rows.filter { !$0.reason.isEmpty }
        guard !missed.isEmpty else { return [] }
        return ["", "Goals not met: where the operation goes (callgrind, inside the loops only), and what meeting it would take:"]
            + missed.map { "- \($0.figure): \($0.reason)" }
    }

    /// The rows as one Markdown table.
    public static func markdownLines(_ rows: [SummaryRow]) -> [String] {
        ["| Figure | Value | Goal | Method |", "|---|---|---|---|"]
            + rows.map { "| \($0.figure) | \($0.value) | \($0.goal) | \($0.method) |" }
            + missedGoalLines(rows)
    }
}
