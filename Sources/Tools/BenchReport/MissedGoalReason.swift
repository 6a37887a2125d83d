// For a codec goal the run did not meet: the measured reason (where the facades' operation goes,
// next to the other program's) and what meeting it would take. The figures come from the loop-only
// callgrind listings (OperationSplit); the remedies are the analysis of docs/measurements.md
// ("Where the rest goes"), named per goal.

import Foundation

public enum MissedGoalReason {
    /// Where the gap lies: in nanopb's share or in what the facades add around it.
    enum Side: String { case nanopb, swiftLayer = "swift-layer" }

    /// What it would take, per kind and side of the gap.
    static let remedies: [String: String] = [
        "encode/nanopb": "a field iterator that does not unpack the descriptor on every visit and skips inactive "
            + "oneof members, or encode code generated per message: a rewrite of pb_common.c or a generator back end",
        "encode/swift-layer": "a cheaper Swift size walk",
        "decode/swift-layer": "allocating the C struct inside the Swift box object: an estimated 200-250 of the ~380 "
            + "instructions the box costs, and every generated `_emptyBox` changes",
        "decode/nanopb": "fewer heap blocks and less table interpretation together: scalars of pointer fields stored "
            + "inline with presence flags, geometric array growth (one capacity rule for every path that extends an "
            + "array), the iterator change of encode",
    ]

    /// The side of the larger part of the gap: against C, whichever of nanopb's share and the
    /// rest grew more; against another codec, nanopb when its share alone is over that codec's
    /// whole operation, else the Swift layer.
    static func side(facade: OperationSplit, other: Double, c: OperationSplit?) -> Side {
        if let c { return facade.nanopb - c.nanopb > facade.outsideNanopb - c.outsideNanopb ? .nanopb : .swiftLayer }
        return facade.nanopb > other ? .nanopb : .swiftLayer
    }

    /// The reason line for a missed goal of `kind` against `program` on one packet, or nil when
    /// the packet carries no split for the facades (an older results file).
    public static func text(kind: String, program: CodecProgram, packet p: PacketInstructions) -> String? {
        guard let facade = p.split(kind, .facade), let other = p.count(kind, program) else { return nil }
        let g = { (x: Double) in NumberFormat.grouped(x, decimals: 0) }
        var parts = ["facades \(g(facade.loop))/op = nanopb \(g(facade.nanopb))"
            + (kind == "decode" ? " (allocator \(g(facade.allocator)))" : "")
            + " + Swift layer \(g(facade.outsideNanopb))"]
        let c = program == .c ? p.split(kind, .c) : nil
        if let c {
            parts.append("nanopb C \(g(c.loop))/op = nanopb \(g(c.nanopb))"
                + (kind == "decode" ? " (allocator \(g(c.allocator)))" : "") + " + loop \(g(c.outsideNanopb))")
        } else {
            parts.append("\(program.shortName) \(g(other))/op; nanopb's share alone is "
                + "\(NumberFormat.fixed(facade.nanopb / other, 2))x of it")
        }
        let remedy = remedies["\(kind)/\(side(facade: facade, other: other, c: c).rawValue)"].map { ". Would take: \($0) (docs/measurements.md, Where the rest goes)" } ?? ""
        return parts.joined(separator: "; ") + remedy
    }
}
