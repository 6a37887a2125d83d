// Three judges of the same bytes: the facades (nanopb), the oracle and, when a caller supplies it,
// Google's C++ parser. Acceptance and meaning must agree, except where a row of docs/deviations.md
// says otherwise; rows are checked by predicate over the input (`WireFeatures`) or over the typed
// error the oracle reports, never by message text. Shared by the differential fuzz target, the
// structure-aware target and the regression replay of `swift test`.

import NanopbRuntime
import ProtoOracle
import ProtoSchema

/// What Google's parser made of an input (`ParsePartialFromArray`).
public struct GoogleVerdict: Sendable {
    /// Whether the parse succeeded.
    public let accepted: Bool
    /// On acceptance: the message re-serialized by Google with its unknown fields discarded.
    public let reencoded: [UInt8]
    /// On acceptance: whether every required field is present (`IsInitialized`).
    public let initialized: Bool

    public init(accepted: Bool, reencoded: [UInt8], initialized: Bool) {
        self.accepted = accepted; self.reencoded = reencoded; self.initialized = initialized
    }
}

/// Google's parser for one message type by full name; nil when it does not know the type.
public typealias GoogleJudge = (_ messageType: String, _ bytes: [UInt8]) -> GoogleVerdict?

public enum DifferentialCheck {
    /// Names of the properties, as a failure reports them.
    public enum Property: String, Sendable {
        case facadeOracleAcceptance = "facade-oracle-acceptance"
        case facadeOracleMeaning = "facade-oracle-meaning"
        case facadeGoogleAcceptance = "facade-google-acceptance"
        case oracleGoogleAcceptance = "oracle-google-acceptance"
        case oracleGoogleMeaning = "oracle-google-meaning"
        case oracleGoogleRequired = "oracle-google-required"
    }

    /// Checks one input; nil when every property holds, else `[property] what differed`.
    public static func check(_ input: [UInt8], _ messageType: FacadeMessageType, schema: MessageSchema,
                             schemas: SchemaSet, google: GoogleJudge? = nil) -> String? {
        let facade: Result<[UInt8], Error>
        do { facade = .success(try messageType.decodeReencode(input)) } catch { facade = .failure(error) }
        let oracle: Result<DynamicMessage, OracleDecodeError>
        do { oracle = .success(try DynamicMessage(serializedBytes: input, schema: schema, in: schemas)) } catch { oracle = .failure(error) }
        let features = WireFeatures.scan(input, schema: schema, in: schemas)
        let meaning = { (bytes: [UInt8]) -> DynamicMessage? in
            try? DynamicMessage(serializedBytes: bytes, schema: schema, in: schemas, options: .init(discardUnknownFields: true))
        }
        func fail(_ property: Property, _ detail: String) -> String {
            "[\(property.rawValue)] \(messageType.fullName): \(detail) (input features: \(features))"
        }

        switch (facade, oracle) {
        case let (.success(reencoded), .success(message)):
            // Rows 3/4 (a repeated singular submessage replaces instead of merging), 8 (a NUL ends
            // a string) and 12 (an undeclared closed-enum number replaces the field's value
            // instead of going to the unknown fields) change the meaning; nothing else may.
            let explained = features.duplicateSingularMessage || features.nulInString || features.unknownClosedEnumValue
            if !explained && meaning(reencoded) != meaning(input) {
                return fail(.facadeOracleMeaning, "the facade's re-encoding means something else than the input to the oracle: \(message)")
            }
        case let (.success, .failure(error)):
            if !facadeMayAccept(rejectedBy: error, features) {
                return fail(.facadeOracleAcceptance, "the facade accepts, the oracle rejects: \(error)")
            }
        case let (.failure(error), .success(message)):
            if !facadeMayReject(error, features, initialized: message.isInitialized) {
                return fail(.facadeOracleAcceptance, "the facade rejects (\(error)), the oracle accepts")
            }
        case (.failure, .failure):
            break
        }

        guard let google, let verdict = google(messageType.fullName, input) else { return nil }
        switch (oracle, verdict.accepted) {
        case let (.success(message), true):
            if meaning(verdict.reencoded) != meaning(input) {
                return fail(.oracleGoogleMeaning, "Google's re-encoding means something else to the oracle than the input: \(message)")
            }
            if verdict.initialized != message.isInitialized {
                return fail(.oracleGoogleRequired, "Google says initialized \(verdict.initialized), the oracle \(message.isInitialized)")
            }
        case let (.failure(error), true):
            return fail(.oracleGoogleAcceptance, "Google accepts, the oracle rejects: \(error)")
        case (.success, false):
            return fail(.oracleGoogleAcceptance, "Google rejects, the oracle accepts")
        case (.failure, false):
            break
        }
        // The facade against Google directly, through the same rows (row 19 through Google's own
        // IsInitialized, as its ParseFromString would reject).
        switch (facade, verdict.accepted) {
        case (.success, false):
            if case let .failure(error) = oracle, facadeMayAccept(rejectedBy: error, features) { break }
            return fail(.facadeGoogleAcceptance, "the facade accepts, Google rejects")
        case let (.failure(error), true):
            if !facadeMayReject(error, features, initialized: verdict.initialized) {
                return fail(.facadeGoogleAcceptance, "the facade rejects (\(error)), Google accepts")
            }
        default:
            break
        }
        return nil
    }

    /// Rows under which the facade accepts what a conforming parser rejects: 9 (invalid UTF-8 in a
    /// proto3 string) and 16 (a length prefix of 6 to 10 bytes).
    static func facadeMayAccept(rejectedBy error: OracleDecodeError, _ features: WireFeatures) -> Bool {
        switch error.reason {
        case .invalidUTF8: return true
        case .overlongLength: return features.overlongLength
        default: return false
        }
    }

    /// Rows under which the facade rejects what a conforming parser accepts: 7, 13 and 18 (a
    /// varint too wide for a 32-bit unsigned field), 17 (bits above 64), 14 (a known field with
    /// the wrong wire type) and 19 (a required field missing), including 3/4 with 19: a repeated
    /// singular submessage replaces the first instead of merging, so a required field only the
    /// first occurrence set is missing to nanopb (Corpus/regressions/rows3-19-…, found by fuzzing).
    static func facadeMayReject(_ error: Error, _ features: WireFeatures, initialized: Bool) -> Bool {
        if features.narrowVarintOverflow || features.overwideVarint || features.wrongWireType || !initialized { return true }
        if features.duplicateSingularMessage, let nanopb = error as? NanopbError,
           case .decodeFailed(reason: .missingRequiredField, offset: _) = nanopb { return true }
        return false
    }
}
