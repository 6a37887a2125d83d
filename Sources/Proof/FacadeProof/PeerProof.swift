// A second codec of the same schema judged next to the facades and the oracle: SwiftProtobuf in
// `wireproof prove` (the runner of its scratch package links SwiftProtobuf's generated code; this
// library never imports SwiftProtobuf, it only sees a `PeerCodec`).
//
//   exemplars  the peer decodes the oracle's canonical bytes of every exemplar and re-encodes them;
//              its bytes must equal the oracle's, and equal the facade's bytes except where the
//              facade's own check (ExemplarCheck (a)) explained a difference by a row;
//   mutants    the same seeded mutants as the facade's mutation step (same seed, same generator),
//              decoded by the peer, the facades and the oracle: acceptance and meaning (what the
//              oracle reads from each re-encoding, unknown fields set aside) are compared. The peer
//              may differ from the oracle only where a `PeerDeviation` predicate holds; it may differ
//              from the facades only where the facades differ from the oracle under a row of
//              docs/deviations.md (`DifferentialCheck`) or the peer does under a `PeerDeviation`.
// Anything else is a failure, named with the seed, mutant index and input.

import ProtoOracle
import ProtoSchema

/// A codec other than the facades, by message full name: decode `bytes`, re-encode what it read.
public struct PeerCodec: Sendable {
    /// What the peer made of one input.
    public enum Verdict: Sendable, Equatable {
        /// Decoded; the peer's re-encoding (deterministic order).
        case accepted([UInt8])
        /// Refused; the peer's error, as its type names it (e.g. "missingRequiredFields").
        case rejected(String)
    }
    /// Shown in tables and failures, e.g. "SwiftProtobuf 1.38.1".
    public let name: String
    /// nil when the peer has no type of that name.
    public let judge: @Sendable (_ messageType: String, _ bytes: [UInt8]) -> Verdict?

    public init(name: String, judge: @escaping @Sendable (_ messageType: String, _ bytes: [UInt8]) -> Verdict?) {
        self.name = name; self.judge = judge
    }
}

/// The peer's side of the proof, per `.proto` file, as `SchemaProofReport` holds it.
public struct PeerProofReport: Sendable, Codable {
    public struct Row: Sendable, Codable {
        public var file: String
        /// Exemplars the peer encodes byte for byte as the facades.
        public var exemplarsSame = 0
        /// Exemplars whose bytes differ between peer and facades only as a row explains.
        public var exemplarsExplained = 0
        /// Mutants peer and facades both reject, or both accept with the same meaning.
        public var mutantsSame = 0
        /// Mutants on which peer and facades differ in acceptance or meaning, each as a row explains.
        public var mutantsExplained = 0
        /// Exemplars and mutants no row explains.
        public var failed = 0
    }
    public var peer: String
    public var rows: [Row]
    /// Explained differences by row: "6" (a row of docs/deviations.md through the facades) or a
    /// `PeerDeviation` id (through the peer), counted once per input and row.
    public var explainedBy: [String: Int]
    public var failures: [String]

    public var total: Row {
        var sum = Row(file: "total")
        for row in rows {
            sum.exemplarsSame += row.exemplarsSame; sum.exemplarsExplained += row.exemplarsExplained
            sum.mutantsSame += row.mutantsSame; sum.mutantsExplained += row.mutantsExplained; sum.failed += row.failed
        }
        return sum
    }
}

public enum PeerProof {
    /// Judges `peer` on the catalog's exemplars and the mutation step's mutants.
    public static func run(catalog: FacadeCatalog, peer: PeerCodec, schemas: SchemaSet, configuration: SchemaProofConfiguration,
                           progress: (String, Int, Int) -> Void = { _, _, _ in }) -> PeerProofReport {
        var rows: [String: PeerProofReport.Row] = [:]
        var explainedBy: [String: Int] = [:]
        var failures: [String] = []
        func bump(_ messageType: String, _ body: (inout PeerProofReport.Row) -> Void) {
            let name = schemas.message(messageType)?.file ?? "?"
            var row = rows[name] ?? PeerProofReport.Row(file: name)
            body(&row)
            rows[name] = row
        }

        let exemplars = Exemplars(schemas: schemas)
        var oracleExemplars: [String: Exemplar] = [:]
        for messageType in catalog.messageTypes {
            guard let message = schemas.message(messageType.fullName) else { continue }
            for exemplar in exemplars.all(for: message) { oracleExemplars[exemplar.name] = exemplar }
        }
        for (index, facade) in catalog.exemplars.enumerated() {
            progress("\(peer.name) exemplars", index + 1, catalog.exemplars.count)
            guard let oracle = oracleExemplars[facade.name], let facadeBytes = try? facade.build() else { continue }
            switch judgeExemplar(facadeBytes, oracle: oracle, messageType: facade.messageType, peer: peer) {
            case .same: bump(facade.messageType) { $0.exemplarsSame += 1 }
            case .explained(let by):
                for row in by { explainedBy[row, default: 0] += 1 }
                bump(facade.messageType) { $0.exemplarsExplained += 1 }
            case .failed(let why):
                failures.append("[\(peer.name) exemplar] \(facade.messageType) exemplar \(facade.name): \(why)")
                bump(facade.messageType) { $0.failed += 1 }
            }
        }

        guard configuration.mutantsPerType > 0 else { return report() }
        let seeds = catalog.exemplars.filter { !$0.name.contains("#") && !$0.name.contains("!") }
        for (index, seedExemplar) in seeds.enumerated() {
            progress("\(peer.name) mutants", index + 1, seeds.count)
            guard let messageType = catalog.messageType(named: seedExemplar.messageType),
                  let schema = schemas.message(seedExemplar.messageType),
                  let original = try? seedExemplar.build() else { continue }
            // The facade mutation step's generator and seed, so these are the very same mutants.
            var random = SplitMix64(seed: configuration.seed ^ DecodeMutationCheck.stableHash(messageType.fullName))
            for mutantIndex in 0..<configuration.mutantsPerType {
                let mutant = DecodeMutationCheck.mutate(original, &random)
                switch judgeMutant(mutant, messageType, schema: schema, schemas: schemas, peer: peer) {
                case .same: bump(messageType.fullName) { $0.mutantsSame += 1 }
                case .explained(let by):
                    for row in by { explainedBy[row, default: 0] += 1 }
                    bump(messageType.fullName) { $0.mutantsExplained += 1 }
                case .failed(let why):
                    failures.append("[\(peer.name) mutant] seed \(configuration.seed) \(messageType.fullName) mutant \(mutantIndex): \(why) — input \(hexPreview(mutant, limit: 4096))")
                    bump(messageType.fullName) { $0.failed += 1 }
                }
            }
        }
        return report()

        func report() -> PeerProofReport {
            let order = schemas.files.map(\.name)
            let sorted = rows.values.sorted { (order.firstIndex(of: $0.file) ?? .max, $0.file) < (order.firstIndex(of: $1.file) ?? .max, $1.file) }
            return PeerProofReport(peer: peer.name, rows: sorted, explainedBy: explainedBy, failures: failures)
        }
    }

    /// How one input came out between the peer and the facades.
    public enum Judgement: Sendable, Equatable {
        case same
        /// They differ, and these rows explain it.
        case explained(Set<String>)
        case failed(String)
    }

    /// The peer decodes the oracle's canonical bytes of the exemplar and must write them back
    /// exactly; the facade's bytes may differ from the peer's only as the facade's own exemplar
    /// check explains (a KnownDifference row).
    public static func judgeExemplar(_ facadeBytes: [UInt8], oracle: Exemplar, messageType: String, peer: PeerCodec) -> Judgement {
        let canonical = oracle.message.serializedBytes()
        guard let verdict = peer.judge(messageType, canonical) else { return .failed("\(peer.name) has no type \(messageType)") }
        guard case .accepted(let peerBytes) = verdict else { return .failed("\(peer.name) rejects the oracle's bytes: \(verdict)") }
        guard peerBytes == canonical else {
            return .failed("\(peer.name) re-encodes the oracle's bytes differently at byte \(firstDifference(peerBytes, canonical)): \(peer.name): \(hexPreview(peerBytes)) oracle: \(hexPreview(canonical))")
        }
        if facadeBytes == peerBytes { return .same }
        let (_, rules, failure) = ExemplarCheck.encodesLikeOracle(facadeBytes, oracle: oracle)
        if let failure { return .failed("facade and \(peer.name) differ at byte \(failure.at), unexplained: \(failure.detail)") }
        return .explained(Set(rules.map { String($0.deviation) }))
    }

    /// Acceptance and meaning of one input through peer, facades and oracle.
    public static func judgeMutant(_ input: [UInt8], _ messageType: FacadeMessageType, schema: MessageSchema,
                                   schemas: SchemaSet, peer: PeerCodec) -> Judgement {
        guard let peerVerdict = peer.judge(messageType.fullName, input) else { return .failed("\(peer.name) has no type \(messageType.fullName)") }
        let facade = try? messageType.decodeReencode(input)
        let oracle: Result<DynamicMessage, OracleDecodeError>
        do { oracle = .success(try DynamicMessage(serializedBytes: input, schema: schema, in: schemas)) } catch { oracle = .failure(error) }
        let features = WireFeatures.scan(input, schema: schema, in: schemas)
        let meaning = { (bytes: [UInt8]) -> DynamicMessage? in
            try? DynamicMessage(serializedBytes: bytes, schema: schema, in: schemas, options: .init(discardUnknownFields: true))
        }

        // 1. The peer against the oracle: equal, or a PeerDeviation says why not.
        var peerRows: Set<String> = []
        switch (peerVerdict, oracle) {
        case let (.accepted(bytes), .success):
            if meaning(bytes) != meaning(input) {
                let rows = PeerDeviation.mayMeanOtherwise(features: features)
                if rows.isEmpty { return .failed("\(peer.name)'s re-encoding means something else than the input to the oracle (features: \(features))") }
                peerRows = rows
            }
        case let (.rejected(reason), .success(message)):
            let rows = PeerDeviation.mayReject(reason: reason, input: input, features: features, initialized: message.isInitialized, schema: schema)
            if rows.isEmpty { return .failed("\(peer.name) rejects (\(reason)), the oracle accepts (features: \(features))") }
            peerRows = rows
        case let (.accepted, .failure(error)):
            let rows = PeerDeviation.mayAccept(rejectedBy: error, features: features)
            if rows.isEmpty { return .failed("\(peer.name) accepts, the oracle rejects: \(error) (features: \(features))") }
            peerRows = rows
        case (.rejected, .failure):
            break
        }

        // 2. The peer against the facades.
        let same: Bool
        switch (peerVerdict, facade) {
        case let (.accepted(peerBytes), facadeBytes?): same = meaning(peerBytes) == meaning(facadeBytes)
        case (.rejected, nil): same = true
        default: same = false
        }
        if same { return .same }
        if let why = DifferentialCheck.check(input, messageType, schema: schema, schemas: schemas) {
            return .failed("\(peer.name) and the facades differ and the facades' difference from the oracle is unexplained: \(why)")
        }
        // The facades' rows count only when the facades themselves differ from the oracle.
        let facadeDiffers: Bool
        switch (facade, oracle) {
        case let (bytes?, .success): facadeDiffers = meaning(bytes) != meaning(input)
        case (nil, .failure): facadeDiffers = false
        default: facadeDiffers = true
        }
        let rows = peerRows.union(facadeDiffers ? facadeRows(features, oracle: oracle) : [])
        if rows.isEmpty {
            return .failed("\(peer.name) and the facades differ (\(describe(peerVerdict)) vs \(facade.map { "accepts: " + hexPreview($0) } ?? "rejects")) and no row names why (features: \(features))")
        }
        return .explained(rows)
    }

    /// The rows of docs/deviations.md under which the facades may differ from the oracle on an
    /// input with these features (the predicates `DifferentialCheck` accepts), for counting; empty
    /// when none applies, which the caller reports as a failure.
    static func facadeRows(_ features: WireFeatures, oracle: Result<DynamicMessage, OracleDecodeError>) -> Set<String> {
        var rows: Set<String> = []
        if features.duplicateSingularMessage { rows.insert("3/4") }
        if features.nulInString { rows.insert("8") }
        if features.unknownClosedEnumValue { rows.insert("12") }
        if features.narrowVarintOverflow { rows.insert("7/13/18") }
        if features.overwideVarint { rows.insert("17") }
        if features.wrongWireType { rows.insert("14") }
        if features.overlongLength { rows.insert("16") }
        switch oracle {
        case .failure(let error) where error.reason == .invalidUTF8: rows.insert("9")
        case .success(let message) where !message.isInitialized: rows.insert("19")
        default: break
        }
        return rows
    }

    static func describe(_ verdict: PeerCodec.Verdict) -> String {
        switch verdict {
        case .accepted(let bytes): return "accepts: " + hexPreview(bytes)
        case .rejected(let reason): return "rejects: " + reason
        }
    }
}
