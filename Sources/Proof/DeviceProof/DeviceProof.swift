// The device as a party of the proof: every exemplar the facades build, and every limit exemplar,
// decoded by the schema's own nanopb build (its options applied), re-encoded there, and read back
// by the facades. Judged per message:
//   - an exemplar the device accepts comes back as the same value, except where an option says
//     the device drops a field ("truncated") or writes a fixed-size field it was not sent
//     ("filled"); the device must refuse what DeviceLimitCheck finds past a limit;
//   - an exemplar the device refuses must be past a limit, with nanopb's message for that limit
//     ("refused by option", naming field and option); any other refusal is a failure;
//   - what a peer (SwiftProtobuf) sends for each exemplar, its own re-encoding of it, is judged as
//     the facades' exemplar is (accepted as the same value, or refused by a named option);
//   - every limit exemplar "at" is accepted (and comes back the same), every "past" refused with
//     the message of its limit; the facades' answer to each "past" is reported (they have no
//     limits, so they accept it: that is the mismatch an app meets).

@_exported import NanopbDeviceLayout
import FacadeProof
import Foundation
import ProtoOracle
import ProtoSchema

public enum DeviceProof {
    /// Runs every exemplar of `catalog` (and, with `peer`, the peer's re-encoding of each) and every
    /// limit exemplar through `driver`, then `mutants` seeded mutants per message type (of that
    /// type's exemplars), judged by `DeviceMutantCheck`.
    public static func run(catalog: FacadeCatalog, schemas: SchemaSet, layout given: DeviceLayout, driver: DeviceDriver,
                           peer: PeerCodec? = nil, mutants: Int = 0, seed: UInt64 = DecodeMutationCheck.defaultSeed) throws -> DeviceProofReport {
        var report = DeviceProofReport()
        report.peer = peer?.name
        var layout = given
        layout.applySizes(try driver.fieldSizes())
        for message in layout.messages {
            for field in message.fields {
                if let held = field.deviceBytes, let declared = field.maxSize, held != declared {
                    report.findings.append("wider than declared: \(message.fullName).\(field.name): max_size = \(declared), but the device accepts up to \(held) bytes (nanopb checks against its C struct, padded to its alignment)")
                }
            }
        }
        var rows: [String: DeviceProofReport.Row] = [:]
        func file(_ type: String) -> String { schemas.message(type)?.file ?? "?" }
        func update(_ type: String, _ change: (inout DeviceProofReport.Row) -> Void) {
            let name = file(type)
            change(&rows[name, default: DeviceProofReport.Row(file: name)])
        }

        // What is sent: facade-built exemplars (as the oracle reads their bytes), each followed by
        // the peer's re-encoding of it, then limit exemplars. A peer's encoding that the oracle
        // cannot read is the peer proof's failure to report, not the device's.
        struct Sent {
            let name: String, type: String, value: DynamicMessage, bytes: [UInt8], limit: LimitExemplar?
            /// The peer's encoding of an exemplar, and whether it is the facades' byte for byte.
            var byPeer = false, sameBytes = false
        }
        var sent: [Sent] = []
        for exemplar in catalog.exemplars where layout.index(of: exemplar.messageType) != nil {
            guard let schema = schemas.message(exemplar.messageType), let bytes = try? exemplar.build(),
                  let value = try? DynamicMessage(serializedBytes: bytes, schema: schema, in: schemas) else { continue }
            sent.append(Sent(name: exemplar.name, type: exemplar.messageType, value: value, bytes: bytes, limit: nil))
            if let peer, case .accepted(let encoded)? = peer.judge(exemplar.messageType, bytes),
               let peerValue = try? DynamicMessage(serializedBytes: encoded, schema: schema, in: schemas) {
                sent.append(Sent(name: "\(exemplar.name) (\(peer.name)'s encoding)", type: exemplar.messageType, value: peerValue,
                                 bytes: encoded, limit: nil, byPeer: true, sameBytes: encoded == bytes))
            }
        }
        let limits = LimitExemplars.all(layout: layout, schemas: schemas)
        report.skipped = limits.skipped
        for limit in limits.exemplars where catalog.messageType(named: limit.messageType) != nil {
            sent.append(Sent(name: limit.name, type: limit.messageType, value: limit.message, bytes: limit.message.serializedBytes(), limit: limit))
        }
        let answers = try driver.run(sent.map { (layout.index(of: $0.type)!, $0.bytes) })

        for (item, answer) in zip(sent, answers) {
            let facade = catalog.messageType(named: item.type)
            var failure: String?
            var counted: (inout DeviceProofReport.Row) -> Void = { _ in }
            let violations = DeviceLimitCheck.violations(of: item.value, layout: layout)
            switch answer {
            case .accepted(let back):
                if let limit = item.limit, !limit.isAt {
                    failure = "\(item.name): the device accepted a value past \(limit.limit.option)"
                } else if !violations.isEmpty {
                    failure = "\(item.name): the device accepted \(violations.map(\.description).joined(separator: "; "))"
                } else {
                    switch readBack(back, type: item.type, facade: facade, schemas: schemas) {
                    case .failure(let why):
                        if let explained = droppedRequired(back, sent: item.value, refusal: why, schemas: schemas, layout: layout) {
                            if !item.sameBytes { report.findings.append("truncated: \(item.name): \(explained)") }
                            counted = { row in
                                if item.limit == nil { accepted(&row, item.byPeer, truncated: true, filled: false) } else { row.limitAtAccepted += 1 }
                            }
                        } else {
                            failure = "\(item.name): \(why)"
                        }
                    case .success(let value):
                        let differences = DeviceComparison.differences(sent: item.value, back: value, layout: layout)
                        if let mismatch = differences.first(where: { $0.kind == .mismatch }) {
                            failure = "\(item.name): the device's re-encoding, read back by the facades, differs: \(mismatch)"
                        } else {
                            let truncated = differences.filter { $0.kind == .truncated }, filled = differences.filter { $0.kind == .filled }
                            if item.limit == nil, !item.sameBytes, !truncated.isEmpty {
                                report.findings.append("truncated: \(item.name): \(truncated.map(\.description).joined(separator: "; "))")
                            }
                            counted = { row in
                                if item.limit == nil {
                                    accepted(&row, item.byPeer, truncated: !truncated.isEmpty, filled: !filled.isEmpty)
                                } else { row.limitAtAccepted += 1 }
                            }
                        }
                    }
                }
            case .refused(let message):
                if let limit = item.limit {
                    if limit.isAt {
                        failure = "\(item.name): the device refused a value at its limit (\(message))"
                    } else if !limit.limit.decodeErrors.contains(message) {
                        failure = "\(item.name): the device refused it with '\(message)', not with \(limit.limit.decodeErrors.sorted().joined(separator: " / "))"
                    } else {
                        counted = { $0.limitPastRefused += 1 }
                    }
                } else if let cause = violations.first(where: { $0.limit.decodeErrors.contains(message) }) {
                    if !item.sameBytes { report.findings.append("refused by option: \(item.name): \(cause) (device: \(message))") }
                    counted = { row in if item.byPeer { row.peerRefusedByOption += 1 } else { row.refusedByOption += 1 } }
                } else {
                    failure = "\(item.name): the device refused it ('\(message)') and no option explains it"
                        + (violations.isEmpty ? "" : " (past limits: \(violations.map(\.description).joined(separator: "; ")))")
                }
            case .reencodeFailed(let message):
                failure = "\(item.name): the device decoded it but could not re-encode it: \(message)"
            case .crashed(let signal):
                failure = "\(item.name): the device build crashed (signal \(signal)) decoding it"
                    + (violations.isEmpty ? "" : " (past limits: \(violations.map(\.description).joined(separator: "; ")))")
            }
            if let limit = item.limit, !limit.isAt, let facade, (try? facade.decodeReencode(item.bytes)) != nil {
                update(item.type) { $0.facadesAcceptPast += 1 }
            }
            // The app's own check (facades generated with --limits-from-options) must name exactly
            // the fields the layout finds past its declared limits (the padding a static bytes
            // field may add is the device's, not the schema's).
            if !item.byPeer, let check = facade?.deviceLimitViolations {
                let expected = DeviceLimitCheck.violations(of: item.value, layout: given).map(\.description).sorted()
                switch Result(catching: { try check(item.bytes).sorted() }) {
                case .success(let said) where said == expected:
                    update(item.type) { row in
                        row.appChecked += 1
                        if let limit = item.limit, !limit.isAt, !said.isEmpty { row.appFlagsPast += 1 }
                    }
                case .success(let said):
                    failure = failure ?? "\(item.name): the facades' deviceLimitViolations() names [\(said.joined(separator: "; "))], the device's layout [\(expected.joined(separator: "; "))]"
                case .failure where !expected.isEmpty:
                    // Facades that honour an option (int_size) refuse the value outright: stronger
                    // than flagging it.
                    update(item.type) { row in
                        row.appChecked += 1
                        if let limit = item.limit, !limit.isAt { row.appFlagsPast += 1 }
                    }
                case .failure(let error):
                    failure = failure ?? "\(item.name): the facades cannot decode it to check its limits: \(error)"
                }
            }
            update(item.type) { row in
                if let limit = item.limit {
                    if limit.isAt { row.limitAt += 1 } else { row.limitPast += 1 }
                } else if item.byPeer {
                    row.peerExemplars += 1
                    if item.sameBytes { row.peerSameBytes += 1 }
                } else { row.exemplars += 1 }
                if failure != nil { row.failed += 1 }
                counted(&row)
            }
            if let failure { report.failures.append(failure) }
        }
        try runMutants(mutants, seed: seed, of: sent.filter { $0.limit == nil && !$0.byPeer }.map { ($0.type, $0.bytes) }, catalog: catalog,
                       schemas: schemas, layout: layout, driver: driver, report: &report, update: update)
        report.rows = rows.keys.sorted().map { rows[$0]! }
        for row in report.rows { report.total.add(row) }
        return report
    }

    /// Counts an exemplar the device accepted, the facades' or the peer's.
    private static func accepted(_ row: inout DeviceProofReport.Row, _ byPeer: Bool, truncated: Bool, filled: Bool) {
        if byPeer {
            row.peerAccepted += 1
            if truncated { row.peerTruncated += 1 }
        } else {
            row.accepted += 1
            if truncated { row.truncated += 1 }
            if filled { row.filled += 1 }
        }
    }

    /// `count` mutants per message type, each of one of its exemplars (in turn), as the facade
    /// proof derives them (`DecodeMutationCheck.mutate`, seeded per type); a failure names the
    /// seed, the type, the mutant's index and its bytes.
    private static func runMutants(_ count: Int, seed: UInt64, of exemplars: [(type: String, bytes: [UInt8])], catalog: FacadeCatalog,
                                   schemas: SchemaSet, layout: DeviceLayout, driver: DeviceDriver, report: inout DeviceProofReport,
                                   update: (String, (inout DeviceProofReport.Row) -> Void) -> Void) throws {
        guard count > 0 else { return }
        var originals: [String: [[UInt8]]] = [:]
        for exemplar in exemplars { originals[exemplar.type, default: []].append(exemplar.bytes) }
        var mutants: [(type: String, index: Int, bytes: [UInt8])] = []
        for type in originals.keys.sorted() {
            var random = SplitMix64(seed: seed ^ DecodeMutationCheck.stableHash(type))
            let pool = originals[type]!
            for index in 0..<count { mutants.append((type, index, DecodeMutationCheck.mutate(pool[index % pool.count], &random))) }
        }
        let answers = try driver.run(mutants.map { (layout.index(of: $0.type)!, $0.bytes) })
        var explained: [String: (count: Int, first: String)] = [:]
        defer {
            for type in explained.keys.sorted() {
                let (count, first) = explained[type]!
                report.findings.append("mutants of \(type): \(count) differ as an option says, e.g. \(first)")
            }
        }
        for (mutant, answer) in zip(mutants, answers) {
            guard let facade = catalog.messageType(named: mutant.type), let schema = schemas.message(mutant.type) else { continue }
            let verdict = DeviceMutantCheck.judge(mutant.bytes, schema: schema, facade: facade, answer: answer, schemas: schemas, layout: layout)
            update(mutant.type) { $0.count(verdict) }
            if case .explainedByOption(let why) = verdict {
                explained[mutant.type, default: (count: 0, first: "mutant \(mutant.index): \(why)")].count += 1
            }
            if case .failure(let what) = verdict {
                report.failures.append("seed \(seed) \(mutant.type) mutant \(mutant.index): \(what) — input \(hexPreview(mutant.bytes, limit: 256))")
            }
        }
    }

    /// When the facades refuse the device's re-encoding because the device dropped a required
    /// field (an option made it a callback or FT_IGNORE), what to report; nil otherwise.
    private static func droppedRequired(_ bytes: [UInt8], sent: DynamicMessage, refusal: DeviceProofError, schemas: SchemaSet,
                                        layout: DeviceLayout) -> String? {
        guard refusal.description.contains("missing required field"),
              let back = try? DynamicMessage(serializedBytes: bytes, schema: sent.schema, in: schemas) else { return nil }
        let differences = DeviceComparison.differences(sent: sent, back: back, layout: layout)
        let truncated = differences.filter { $0.kind == .truncated }
        guard !truncated.isEmpty, !differences.contains(where: { $0.kind == .mismatch }) else { return nil }
        return truncated.map(\.description).joined(separator: "; ") + "; a required field is dropped, so the facades refuse what the device sends back"
    }

    /// The facades' reading of what the device re-encoded, as the oracle reads the facades' bytes.
    private static func readBack(_ bytes: [UInt8], type: String, facade: FacadeMessageType?, schemas: SchemaSet) -> Result<DynamicMessage, DeviceProofError> {
        guard let facade, let schema = schemas.message(type) else { return .failure(DeviceProofError(description: "no facade for \(type)")) }
        let again: [UInt8]
        do { again = try facade.decodeReencode(bytes) } catch {
            return .failure(DeviceProofError(description: "the facades refuse the device's re-encoding: \(error)"))
        }
        do { return .success(try DynamicMessage(serializedBytes: again, schema: schema, in: schemas)) } catch {
            return .failure(DeviceProofError(description: "the oracle refuses the facades' re-encoding of the device's bytes: \(error)"))
        }
    }
}

/// Why the device party could not run (as opposed to a check failing).
public struct DeviceProofError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(description: String) { self.description = description }
}
