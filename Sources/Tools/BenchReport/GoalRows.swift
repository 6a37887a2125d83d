// The project's goals for the shipped layer, each as one row of the summary table with its
// measured value and "met" / "not met": codec ratios on both packets, facade bytes per used
// message, and the fuzz targets' fixed-input rate.

import Foundation

/// A limit a figure must stay under (`atMost`) or reach (`atLeast`).
public struct Goal: Equatable, Sendable {
    public enum Direction: Sendable { case atMost, atLeast }
    public let direction: Direction
    public let limit: Double
    /// Printed after the limit ("B" for bytes, "" for a ratio).
    public let unit: String

    public static func atMost(_ limit: Double, _ unit: String = "") -> Goal { Goal(direction: .atMost, limit: limit, unit: unit) }
    public static func atLeast(_ limit: Double, _ unit: String = "") -> Goal { Goal(direction: .atLeast, limit: limit, unit: unit) }

    public func isMet(by value: Double) -> Bool {
        direction == .atMost ? value <= limit : value >= limit
    }

    /// "≤ 1.05: met", "≥ 0.9: not met", or "≤ 850 B: not measured" for a missing value.
    public func verdict(_ value: Double?) -> String {
        let bound = (direction == .atMost ? "≤ " : "≥ ") + Self.number(limit) + (unit.isEmpty ? "" : " " + unit)
        guard let value else { return bound + ": not measured" }
        return bound + (isMet(by: value) ? ": met" : ": not met")
    }

    /// 1.0 → "1.0", 1.05 → "1.05", 850 → "850".
    static func number(_ x: Double) -> String {
        x == x.rounded() && x >= 10 ? String(Int(x)) : "\(x)"
    }
}

/// One row of the summary table.
public struct SummaryRow: Equatable, Sendable {
    public var figure: String
    public var value: String
    /// "" for a figure without a goal.
    public var goal: String
    public var method: String
    /// For a goal not met: the measured reason and what meeting it would take ("" otherwise).
    public var reason: String = ""
}

public enum GoalRows {
    /// Facades ÷ other codec: the codec goals, in the table's order (kind, program, goal).
    public static let codecGoals: [(kind: String, program: CodecProgram, goal: Goal)] = [
        ("encode", .swiftprotobuf, .atMost(1.0)), ("encode", .c, .atMost(1.05)),
        ("decode", .c, .atMost(1.05)), ("decode", .swiftprotobuf, .atMost(1.0)),
    ]
    public static let usedMessageFacadeBytes = Goal.atMost(850, "B")
    public static let fuzzFixedRate = Goal.atLeast(0.9)

    /// Every goal row: each codec goal on the chat and metrics packets, facade bytes per used
    /// message on the full dead strip, the fuzz rate. A goal whose figure this run did not
    /// measure still gets its row, "not measured".
    public static func rows(_ r: BenchResults) -> [SummaryRow] {
        var rows: [SummaryRow] = []
        let method = "callgrind: inclusive instructions of each program's loop / iterations, same bytes (make bench's ratio step)"
        for (kind, program, goal) in codecGoals {
            for packet in RatioReport.packets {
                let p = r.ratios?.packets.first { $0.packet == packet }
                let bytes = p.map { ", \(NumberFormat.grouped($0.bytes)) B" } ?? ""
                let figure = "\(kind.prefix(1).uppercased() + kind.dropFirst()) ÷ \(program.shortName), \(packet) packet\(bytes)"
                if let facade = p?.count(kind, .facade), let other = p?.count(kind, program) {
                    let ratio = facade / other
                    let reason = goal.isMet(by: ratio) ? nil : p.flatMap { MissedGoalReason.text(kind: kind, program: program, packet: $0) }
                    rows.append(SummaryRow(
                        figure: figure,
                        value: "**\(NumberFormat.fixed(ratio, 2))** (\(NumberFormat.grouped(facade, decimals: 0)) vs "
                            + "\(NumberFormat.grouped(other, decimals: 0)) instructions/op)",
                        goal: goal.verdict(ratio), method: method, reason: reason ?? ""))
                } else {
                    rows.append(SummaryRow(figure: figure, value: "not measured in this run", goal: goal.verdict(nil), method: method))
                }
            }
        }
        let stripped = r.sizeFigures?["stripped"]
        rows.append(SummaryRow(
            figure: "Facade bytes per used message (full dead strip)",
            value: stripped.map { "\(NumberFormat.grouped($0.usedPerMessageFacade, decimals: 0)) B (whole binary "
                + "\(NumberFormat.grouped($0.usedPerMessageAlloc, decimals: 0)) B)" } ?? "not measured in this run",
            goal: usedMessageFacadeBytes.verdict(stripped?.usedPerMessageFacade),
            method: "(SizeAll - SizeOne) / \(r.messagesAll.map { String($0 - 1) } ?? "(messages - 1)"), facade-attributed symbols; "
                + "whole binary includes call sites"))
        let fuzz = r.ratios?.fuzzFixed
        rows.append(SummaryRow(
            figure: "Fuzz target `decode` (facades) ÷ `decode_c` (plain C), fixed inputs",
            value: fuzz.map { "**\(NumberFormat.fixed($0, 2))x** throughput" }
                ?? (r.ratios == nil ? "not measured in this run" : "not measured in this run (BENCH_FUZZ=0)"),
            goal: fuzzFixedRate.verdict(fuzz),
            method: "every seed of Corpus/seeds 200 times, ASan + libFuzzer release builds, core 0 (wireproof fuzz rate --fixed-only)"))
        return rows
    }
}
