import FacadeProof
import Foundation
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

/// When a caller hands `DifferentialCheck` Google's parser, the oracle and Google must agree on
/// acceptance, on meaning (the oracle's reading of Google's re-encoding) and on whether every
/// required field is present; each disagreement is named by its property. A facade that refuses
/// with an error that is no NanopbError is counted as a refusal and named a typed-error failure.
@Suite struct DifferentialGoogleVerdictTests {
    static let schemas: SchemaSet = {
        do {
            return try InlineSchema.compile([
                "dg/one.proto": "syntax = \"proto2\"; package dg; message One { required int32 id = 1; optional string name = 2; }",
            ])
        } catch {
            fatalError("inline schema: \(error)")
        }
    }()
    static var one: MessageSchema { schemas.message("dg.One")! }
    /// Facades that read and write as the oracle does.
    static let facade = FacadeMessageType("dg.One") { try DynamicMessage(serializedBytes: $0, schema: one, in: schemas).serializedBytes() }
    static let valid: [UInt8] = [0x08, 0x01]

    static func check(_ input: [UInt8], google: GoogleVerdict?) -> String? {
        DifferentialCheck.check(input, facade, schema: one, schemas: schemas, google: { type, _ in type == "dg.One" ? google : nil })
    }

    @Test func googleAgreeingOrAbsentLeavesNothingToReport() {
        #expect(Self.check(Self.valid, google: GoogleVerdict(accepted: true, reencoded: Self.valid, initialized: true)) == nil)
        #expect(Self.check(Self.valid, google: nil) == nil)
        #expect(Self.check([0x08], google: GoogleVerdict(accepted: false, reencoded: [], initialized: false)) == nil)
    }

    @Test func eachDisagreementWithGoogleIsNamedByItsProperty() throws {
        let otherMeaning = try #require(Self.check(Self.valid, google: GoogleVerdict(accepted: true, reencoded: [0x08, 0x02], initialized: true)))
        #expect(otherMeaning.hasPrefix("[oracle-google-meaning] dg.One: Google's re-encoding means something else to the oracle than the input: "))
        let required = try #require(Self.check(Self.valid, google: GoogleVerdict(accepted: true, reencoded: Self.valid, initialized: false)))
        #expect(required.hasPrefix("[oracle-google-required] dg.One: Google says initialized false, the oracle true"))
        let refused = try #require(Self.check(Self.valid, google: GoogleVerdict(accepted: false, reencoded: [], initialized: false)))
        #expect(refused.hasPrefix("[oracle-google-acceptance] dg.One: Google rejects, the oracle accepts"))
        let accepted = try #require(Self.check([0x08], google: GoogleVerdict(accepted: true, reencoded: [], initialized: true)))
        #expect(accepted.hasPrefix("[oracle-google-acceptance] dg.One: Google accepts, the oracle rejects: "))
    }

    struct Untyped: Error, CustomStringConvertible { var description: String { "not a NanopbError" } }

    @Test func aRefusalThatIsNoNanopbErrorIsCountedAndNamed() {
        var accepted = 0, rejected = 0
        let untyped = FacadeMessageType("dg.One") { _ in throw Untyped() }
        let failure = DecodeMutationCheck.check(Self.valid, untyped, schema: Self.one, schemas: Self.schemas, accepted: &accepted, rejected: &rejected)
        #expect(failure == "[typed-error] decode threw a non-NanopbError: not a NanopbError")
        #expect(accepted == 0 && rejected == 1)
        #expect(DecodeMutationCheck.check(Self.valid, Self.facade, schema: Self.one, schemas: Self.schemas, accepted: &accepted, rejected: &rejected) == nil)
        #expect(accepted == 1 && rejected == 1)
    }
}
