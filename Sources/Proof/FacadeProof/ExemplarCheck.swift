// The three checks every exemplar passes through the facades, against the oracle's exemplar of the
// same name (the oracle is trusted because it agrees with protoc):
//   (a) the facade-built message encodes to the oracle's bytes (canonical, or under the nanopb
//       profile when a KnownDifference explains the difference);
//   (b) facade decode then re-encode reproduces those bytes;
//   (c) the oracle decodes the facade's bytes to exactly the exemplar.

import NanopbRuntime
import ProtoOracle
import ProtoSchema

/// A failed exemplar check: which exemplar, which check, and where the bytes first differ.
public struct ExemplarFailure: Sendable, CustomStringConvertible, Equatable {
    public enum Check: String, Sendable, Equatable {
        case encodesLikeOracle = "(a) encodes like the oracle"
        case roundTripStable = "(b) stable round trip"
        case oracleReadsBack = "(c) oracle reads it back"
        case build = "build"
        case unknownToOracle = "unknown to the oracle"
    }
    public let exemplar: String
    public let messageType: String
    public let check: Check
    /// The first differing byte, for byte comparisons.
    public let firstDifferingByte: Int?
    public let detail: String

    public var description: String {
        let at = firstDifferingByte.map { " at byte \($0)" } ?? ""
        return "\(messageType) exemplar \(exemplar): \(check.rawValue) failed\(at): \(detail)"
    }
}

/// The outcome of the three checks on one exemplar.
public struct ExemplarOutcome: Sendable {
    public let exemplar: String
    public let messageType: String
    /// The facade wrote exactly the canonical encoding.
    public let identicalToCanonical: Bool
    /// Rules that explained a non-canonical (but nanopb-profile-identical) encoding.
    public let explainedBy: Set<KnownDifference>
    public let failures: [ExemplarFailure]
}

public enum ExemplarCheck {
    /// Runs (a), (b) and (c) on `facade` against the oracle's exemplar `oracle`.
    public static func run(_ facade: FacadeExemplar, oracle: Exemplar, messageType: FacadeMessageType?,
                           schemas: SchemaSet) -> ExemplarOutcome {
        func fail(_ check: ExemplarFailure.Check, _ at: Int?, _ detail: String) -> ExemplarFailure {
            ExemplarFailure(exemplar: facade.name, messageType: facade.messageType, check: check, firstDifferingByte: at, detail: detail)
        }
        let bytes: [UInt8]
        do { bytes = try facade.build() } catch {
            return ExemplarOutcome(exemplar: facade.name, messageType: facade.messageType, identicalToCanonical: false,
                                   explainedBy: [], failures: [fail(.build, nil, "\(error)")])
        }
        var failures: [ExemplarFailure] = []
        let (identical, explained, encodeFailure) = encodesLikeOracle(bytes, oracle: oracle)
        if let encodeFailure { failures.append(fail(.encodesLikeOracle, encodeFailure.at, encodeFailure.detail)) }
        if let messageType {
            do {
                let again = try messageType.decodeReencode(bytes)
                if again != bytes {
                    failures.append(fail(.roundTripStable, firstDifference(again, bytes),
                                         "facade: \(hexPreview(bytes)) re-encoded: \(hexPreview(again))"))
                }
            } catch {
                failures.append(fail(.roundTripStable, nil, "the facade rejects its own encoding: \(error)"))
            }
        } else {
            failures.append(fail(.roundTripStable, nil, "the catalog has no message type \(facade.messageType)"))
        }
        if let detail = oracleReadsBack(bytes, oracle: oracle, schemas: schemas) {
            failures.append(fail(.oracleReadsBack, nil, detail))
        }
        return ExemplarOutcome(exemplar: facade.name, messageType: facade.messageType, identicalToCanonical: identical,
                               explainedBy: explained, failures: failures)
    }

    /// Check (a): whether `bytes` are the canonical encoding, which known differences explain a
    /// non-canonical one, or why they are wrong.
    public static func encodesLikeOracle(_ bytes: [UInt8], oracle: Exemplar)
        -> (identical: Bool, explainedBy: Set<KnownDifference>, failure: (at: Int, detail: String)?) {
        let canonical = oracle.message.serializedBytes()
        if bytes == canonical { return (true, [], nil) }
        let differences = KnownDifference.affecting(oracle.message)
        let profile = oracle.message.serializedBytes(options: .nanopb)
        if differences.isEmpty {
            return (false, [], (firstDifference(bytes, canonical),
                                "no known difference applies; facade: \(hexPreview(bytes)) oracle: \(hexPreview(canonical))"))
        }
        if bytes != profile {
            return (false, differences, (firstDifference(bytes, profile),
                                         "facade: \(hexPreview(bytes)) oracle (nanopb profile): \(hexPreview(profile))"))
        }
        return (false, differences, nil)
    }

    /// Check (c): nil when the oracle decodes `bytes` to exactly the exemplar, else why not.
    public static func oracleReadsBack(_ bytes: [UInt8], oracle: Exemplar, schemas: SchemaSet) -> String? {
        do {
            let decoded = try DynamicMessage(serializedBytes: bytes, schema: oracle.message.schema, in: schemas)
            return decoded == oracle.message ? nil : "oracle reads the facade's bytes as\n\(decoded)\nexpected\n\(oracle.message)"
        } catch {
            return "the oracle rejects the facade's bytes: \(error)"
        }
    }
}
