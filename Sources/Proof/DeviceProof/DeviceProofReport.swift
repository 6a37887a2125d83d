// What the device party found, per `.proto` file: the counts `wireproof prove` prints as the
// device table and writes into its JSON summary, the findings an app should know, the failures.

import Foundation

/// Counts per `.proto` file, and what failed.
public struct DeviceProofReport: Codable, Sendable {
    public struct Row: Codable, Sendable, Equatable {
        public var file: String
        /// Facade exemplars of messages the device build has.
        public var exemplars = 0
        public var accepted = 0
        public var refusedByOption = 0
        /// Accepted exemplars the device kept only part of (a dropped field), or padded ("filled").
        public var truncated = 0, filled = 0
        public var limitAt = 0, limitAtAccepted = 0, limitPast = 0, limitPastRefused = 0
        /// "Past" limit exemplars the facades decode (all of them: their decoder has no limits).
        public var facadesAcceptPast = 0
        /// Messages the facades' own limit check (`--limits-from-options`) judged as the layout
        /// does, and "past" limit exemplars it flagged.
        public var appChecked = 0, appFlagsPast = 0
        /// Seeded mutants of the exemplars decoded by both: the same meaning (or both refused),
        /// a difference an option explains, the device merging a submessage the facades replace.
        public var mutants = 0, mutantsSame = 0, mutantsByOption = 0, mutantsMerged = 0
        /// Mutants the facades' patched nanopb and the device's stock one read by different rules
        /// (patches/nanopb/0001: tags and unknown groups as Google reads them), not compared.
        public var mutantsStock = 0
        /// Exemplars the peer (SwiftProtobuf) re-encoded, each sent to the device too: how many
        /// came out byte for byte as the facades', and the device's answers to all of them.
        public var peerExemplars = 0, peerSameBytes = 0, peerAccepted = 0, peerRefusedByOption = 0, peerTruncated = 0
        public var failed = 0

        public init(file: String) { self.file = file }

        /// One seeded mutant's verdict, counted in `mutants` and in the column that verdict belongs to.
        mutating func count(_ verdict: DeviceMutantVerdict) {
            mutants += 1
            switch verdict {
            case .same, .bothRefuse: mutantsSame += 1
            case .explainedByOption: mutantsByOption += 1
            case .deviceMergesWhereFacadesReplace: mutantsMerged += 1
            case .readDifferentlyByStockNanopb: mutantsStock += 1
            case .failure: failed += 1
            }
        }

        mutating func add(_ other: Row) {
            exemplars += other.exemplars; accepted += other.accepted; refusedByOption += other.refusedByOption
            truncated += other.truncated; filled += other.filled; limitAt += other.limitAt; limitAtAccepted += other.limitAtAccepted
            limitPast += other.limitPast; limitPastRefused += other.limitPastRefused; facadesAcceptPast += other.facadesAcceptPast
            appChecked += other.appChecked; appFlagsPast += other.appFlagsPast
            mutants += other.mutants; mutantsSame += other.mutantsSame; mutantsByOption += other.mutantsByOption; mutantsMerged += other.mutantsMerged
            mutantsStock += other.mutantsStock
            peerExemplars += other.peerExemplars; peerSameBytes += other.peerSameBytes; peerAccepted += other.peerAccepted
            peerRefusedByOption += other.peerRefusedByOption; peerTruncated += other.peerTruncated
            failed += other.failed
        }
    }
    public var rows: [Row] = []
    public var total = Row(file: "total")
    /// One line per refusal by option and per truncation (what the app should know).
    public var findings: [String] = []
    public var failures: [String] = []
    /// Limit exemplars not generated, with why.
    public var skipped: [String] = []
    /// The peer whose encodings the device also decoded (e.g. "SwiftProtobuf 1.38.1"), if any.
    public var peer: String?
    public var passed: Bool { failures.isEmpty }

    enum CodingKeys: String, CodingKey { case rows, total, findings, failures, skipped, peer, passed }

    public init() {}
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rows = try c.decode([Row].self, forKey: .rows); total = try c.decode(Row.self, forKey: .total)
        findings = try c.decode([String].self, forKey: .findings); failures = try c.decode([String].self, forKey: .failures)
        skipped = try c.decode([String].self, forKey: .skipped)
        peer = try c.decodeIfPresent(String.self, forKey: .peer)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rows, forKey: .rows); try c.encode(total, forKey: .total); try c.encode(findings, forKey: .findings)
        try c.encode(failures, forKey: .failures); try c.encode(skipped, forKey: .skipped); try c.encodeIfPresent(peer, forKey: .peer)
        try c.encode(passed, forKey: .passed)
    }

    /// The table `wireproof prove` prints; the peer's columns only when a peer took part.
    public var table: String {
        var head = ["exemplars", "accepted", "refused", "truncated", "filled", "at", "at ok", "past", "past refused", "facades accept past",
                    "app checked", "app flags past", "mutants", "mut.same", "mut.option", "mut.merged", "mut.stock"]
        if peer != nil { head += ["peer exemplars", "peer same bytes", "peer accepted", "peer refused", "peer truncated"] }
        head.append("failed")
        func line(_ name: String, _ cells: [String]) -> String {
            name.padding(toLength: max(36, name.count), withPad: " ", startingAt: 0)
                + zip(head, cells).map { String(repeating: " ", count: max(0, $0.0.count - $0.1.count) + 1) + $0.1 }.joined()
        }
        var lines = ["device build (nanopb with the schema's options): exemplars accepted / refused by option / truncated; limit exemplars at / past"
                     + (peer.map { "; the peer: \($0)'s encodings of the exemplars" } ?? ""),
                     line("file", head)]
        for row in rows + [total] {
            var cells = [row.exemplars, row.accepted, row.refusedByOption, row.truncated, row.filled, row.limitAt,
                         row.limitAtAccepted, row.limitPast, row.limitPastRefused, row.facadesAcceptPast, row.appChecked, row.appFlagsPast,
                         row.mutants, row.mutantsSame, row.mutantsByOption, row.mutantsMerged, row.mutantsStock]
            if peer != nil { cells += [row.peerExemplars, row.peerSameBytes, row.peerAccepted, row.peerRefusedByOption, row.peerTruncated] }
            lines.append(line(row.file, (cells + [row.failed]).map(String.init)))
        }
        return lines.joined(separator: "\n")
    }
}
