// The proof of one schema's facades against the oracle: every exemplar through the three checks,
// seeded decode mutation of every message type, and the deviation rows the schema is exposed to.
// One implementation for `swift test` (the bundled schema), `wireproof prove` (any schema) and
// anything else that has a catalog.

import ProtoOracle
import ProtoSchema

/// What to prove and how hard.
public struct SchemaProofConfiguration: Sendable {
    /// Mutants per message type (0 skips the mutation step).
    public var mutantsPerType: Int = 64
    public var seed: UInt64 = DecodeMutationCheck.defaultSeed
    public init(mutantsPerType: Int = 64, seed: UInt64 = DecodeMutationCheck.defaultSeed) {
        self.mutantsPerType = mutantsPerType; self.seed = seed
    }
}

/// The outcome, per `.proto` file and in total.
public struct SchemaProofReport: Sendable, Codable {
    public struct Row: Sendable, Codable {
        public var file: String
        public var messages = 0
        public var exemplars = 0
        public var passed = 0
        public var failed = 0
        /// Exemplars whose bytes differ from canonical only as a known difference explains.
        public var explained = 0
        public var excluded = 0
        public var mutantsAccepted = 0
        public var mutantsRejected = 0
        public var mutantsFailed = 0
    }
    public struct Deviation: Sendable, Codable {
        public let row: Int
        public let summary: String
        public let elements: Int
        /// Exemplars whose bytes this row's rule explained (rows with an exemplar rule only).
        public let explainedExemplars: Int?
    }
    public var rows: [Row]
    public var deviations: [Deviation]
    /// Every broken check, readable and replayable.
    public var failures: [String]
    /// Oracle exemplars neither generated nor excluded with a reason (a stale catalog).
    public var missing: [String]
    /// The peer's side (SwiftProtobuf in `wireproof prove`), when a peer took part.
    public var peer: PeerProofReport?

    public var total: Row {
        var sum = Row(file: "total")
        for row in rows {
            sum.messages += row.messages; sum.exemplars += row.exemplars; sum.passed += row.passed
            sum.failed += row.failed; sum.explained += row.explained; sum.excluded += row.excluded
            sum.mutantsAccepted += row.mutantsAccepted; sum.mutantsRejected += row.mutantsRejected
            sum.mutantsFailed += row.mutantsFailed
        }
        return sum
    }

    public var passed: Bool { failures.isEmpty && missing.isEmpty && (peer?.failures.isEmpty ?? true) }

    /// One line per file and a total, fixed-width.
    public var table: String {
        let width = max(36, (rows.map(\.file.count).max() ?? 0) + 2)
        let headers = ["messages", "exemplars", "passed", "failed", "explained", "excluded", "mut.ok", "mut.rej", "mut.fail"]
        func line(_ first: String, _ cells: [String]) -> String {
            first.padding(toLength: width, withPad: " ", startingAt: 0)
                + cells.map { String(repeating: " ", count: max(1, 10 - $0.count)) + $0 }.joined()
        }
        func line(_ row: Row) -> String {
            line(row.file, [row.messages, row.exemplars, row.passed, row.failed, row.explained, row.excluded,
                            row.mutantsAccepted, row.mutantsRejected, row.mutantsFailed].map(String.init))
        }
        return ([line("file", headers)] + rows.map(line) + [line(total)]).joined(separator: "\n")
    }
}

public enum SchemaProof {
    /// Proves `catalog` against the oracle on `schemas`. `progress(step, done, total)` reports.
    public static func run(catalog: FacadeCatalog, schemas: SchemaSet, configuration: SchemaProofConfiguration,
                           progress: (String, Int, Int) -> Void = { _, _, _ in }) -> SchemaProofReport {
        var rows: [String: SchemaProofReport.Row] = [:]
        func file(of messageType: String) -> String { schemas.message(messageType)?.file ?? "?" }
        func bump(_ messageType: String, _ body: (inout SchemaProofReport.Row) -> Void) {
            let name = file(of: messageType)
            var row = rows[name] ?? SchemaProofReport.Row(file: name)
            body(&row)
            rows[name] = row
        }
        var failures: [String] = []
        var perRule: [KnownDifference: Int] = [:]

        // Exemplars.
        var oracleExemplars: [String: Exemplar] = [:]
        let exemplars = Exemplars(schemas: schemas)
        for messageType in catalog.messageTypes {
            bump(messageType.fullName) { $0.messages += 1 }
            guard let message = schemas.message(messageType.fullName) else {
                failures.append("\(messageType.fullName): in the catalog but not in the schema (stale catalog: regenerate)")
                continue
            }
            for exemplar in exemplars.all(for: message) { oracleExemplars[exemplar.name] = exemplar }
        }
        for (index, facade) in catalog.exemplars.enumerated() {
            progress("exemplars", index + 1, catalog.exemplars.count)
            guard let oracle = oracleExemplars[facade.name] else {
                failures.append("\(facade.messageType) exemplar \(facade.name): unknown to the oracle (stale catalog: regenerate)")
                bump(facade.messageType) { $0.exemplars += 1; $0.failed += 1 }
                continue
            }
            let outcome = ExemplarCheck.run(facade, oracle: oracle, messageType: catalog.messageType(named: facade.messageType), schemas: schemas)
            for rule in outcome.explainedBy where outcome.failures.isEmpty { perRule[rule, default: 0] += 1 }
            failures += outcome.failures.map(\.description)
            bump(facade.messageType) {
                $0.exemplars += 1
                if outcome.failures.isEmpty { $0.passed += 1 } else { $0.failed += 1 }
                if outcome.failures.isEmpty && !outcome.identicalToCanonical { $0.explained += 1 }
            }
        }
        let generated = Set(catalog.exemplars.map(\.name))
        let excluded = Set(catalog.exclusions.map(\.name))
        for exclusion in catalog.exclusions {
            let messageType = String(exclusion.name.prefix { $0 != "#" && $0 != "!" })
            bump(messageType) { $0.excluded += 1 }
        }
        let missing = oracleExemplars.keys.filter { name in
            !generated.contains(name) && !excluded.contains(name) && !excluded.contains(String(name.prefix { $0 != "#" && $0 != "!" }))
        }.sorted()

        // Seeded decode mutation, one full exemplar per message type as the seed input.
        if configuration.mutantsPerType > 0 {
            let seeds = catalog.exemplars.filter { !$0.name.contains("#") && !$0.name.contains("!") }
            for (index, seedExemplar) in seeds.enumerated() {
                progress("mutation", index + 1, seeds.count)
                guard let messageType = catalog.messageType(named: seedExemplar.messageType),
                      let message = schemas.message(seedExemplar.messageType),
                      let original = try? seedExemplar.build() else { continue }
                let outcome = DecodeMutationCheck.run(messageType, original: original, schema: message, schemas: schemas,
                                                      seed: configuration.seed, count: configuration.mutantsPerType)
                failures += outcome.failures
                bump(seedExemplar.messageType) {
                    $0.mutantsAccepted += outcome.accepted; $0.mutantsRejected += outcome.rejected
                    $0.mutantsFailed += outcome.failures.count
                }
            }
        }

        // Deviation rows the schema is exposed to.
        let messages = catalog.messageTypes.compactMap { schemas.message($0.fullName) }
        let deviations = DeviationRows.exposure(of: messages, in: schemas).map { exposure in
            let rule = KnownDifference.all.first { $0.deviation == exposure.row }
            return SchemaProofReport.Deviation(row: exposure.row, summary: exposure.summary, elements: exposure.elements.count,
                                               explainedExemplars: rule.map { perRule[$0, default: 0] })
        }
        let order = schemas.files.map(\.name)
        let sortedRows = rows.values.sorted { (order.firstIndex(of: $0.file) ?? .max, $0.file) < (order.firstIndex(of: $1.file) ?? .max, $1.file) }
        return SchemaProofReport(rows: sortedRows, deviations: deviations, failures: failures, missing: missing)
    }
}
