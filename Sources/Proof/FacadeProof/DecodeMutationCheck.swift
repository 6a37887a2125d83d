// Seeded mutation of valid encodings through the facade decoder, checking the guarantees towards
// untrusted bytes of docs/DESIGN.md:
//   1. a rejected input throws `NanopbError.decodeFailed` with an offset inside the input (a crash,
//      a trap or a hang fails the run; under the sanitizer legs so does any bad access or leak);
//   5. an accepted input re-encodes to bytes that the facade decodes again to the same bytes, and
//      that the oracle, a conforming parser, accepts.
// Every mutant derives from one seed; a failure names the seed, the mutant index and its bytes.

import NanopbRuntime
import ProtoOracle
import ProtoSchema

/// The outcome of one message type's mutants.
public struct DecodeMutationOutcome: Sendable {
    public let messageType: String
    public var accepted = 0
    public var rejected = 0
    /// One line per broken property, replayable from the seed.
    public var failures: [String] = []
}

public enum DecodeMutationCheck {
    public static let defaultSeed: UInt64 = 0x5EED_DEC0DE

    /// Runs `count` mutants of `original` (a valid encoding of `messageType`) through the facade.
    public static func run(_ messageType: FacadeMessageType, original: [UInt8], schema: MessageSchema,
                           schemas: SchemaSet, seed: UInt64 = defaultSeed, count: Int) -> DecodeMutationOutcome {
        var outcome = DecodeMutationOutcome(messageType: messageType.fullName)
        var random = SplitMix64(seed: seed ^ stableHash(messageType.fullName))
        for index in 0..<count {
            let mutant = mutate(original, &random)
            if let failure = check(mutant, messageType, schema: schema, schemas: schemas, accepted: &outcome.accepted, rejected: &outcome.rejected) {
                outcome.failures.append("seed \(seed) \(messageType.fullName) mutant \(index): \(failure) — input \(hexPreview(mutant, limit: 4096))")
            }
        }
        return outcome
    }

    /// Checks the properties on one input; nil when they hold, else `[property] what broke`
    /// (typed-error, error-offset, stable-reencode, oracle-reads-reencoding).
    public static func check(_ input: [UInt8], _ messageType: FacadeMessageType, schema: MessageSchema, schemas: SchemaSet,
                             accepted: inout Int, rejected: inout Int) -> String? {
        let first: [UInt8]
        do {
            first = try messageType.decodeReencode(input)
        } catch let error as NanopbError {
            rejected += 1
            guard case let .decodeFailed(reason, offset) = error else { return "[typed-error] decode threw \(error), not decodeFailed" }
            if reason == .other("(no message)") { return "[typed-error] decode failed without a reason (\(error))" }
            return offset >= 0 && offset <= input.count ? nil : "[error-offset] error offset \(offset) outside the input (\(error))"
        } catch {
            rejected += 1
            return "[typed-error] decode threw a non-NanopbError: \(error)"
        }
        accepted += 1
        do {
            let second = try messageType.decodeReencode(first)
            if second != first { return "[stable-reencode] re-encoding is not stable (first difference at byte \(firstDifference(first, second)))" }
        } catch {
            return "[stable-reencode] the facade rejects its own re-encoding: \(error)"
        }
        do {
            _ = try DynamicMessage(serializedBytes: first, schema: schema, in: schemas)
        } catch let error where error.reason == .invalidUTF8 {
            // Pinned deviation 9 (docs/deviations.md): nanopb keeps invalid UTF-8 in proto3 strings.
        } catch {
            return "[oracle-reads-reencoding] the oracle rejects the facade's re-encoding (\(error))"
        }
        return nil
    }

    /// One random edit: flip a bit, overwrite a byte, truncate, insert random bytes, duplicate or
    /// delete a slice. Inputs stay small (at most twice the original plus 16 bytes).
    public static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var out = bytes
        let position = out.isEmpty ? 0 : random.below(out.count)
        switch random.below(6) {
        case 0 where !out.isEmpty: out[position] ^= UInt8(1) << UInt8(random.below(8))
        case 1 where !out.isEmpty: out[position] = UInt8(truncatingIfNeeded: random.next())
        case 2: out = Array(out.prefix(position))
        case 3: out.insert(contentsOf: (0..<1 + random.below(16)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: position)
        case 4 where !out.isEmpty:
            let end = min(out.count, position + 1 + random.below(32))
            out.insert(contentsOf: out[position..<end], at: random.below(out.count + 1))
        case 5 where !out.isEmpty:
            let end = min(out.count, position + 1 + random.below(8))
            out.removeSubrange(position..<end)
        default: out.append(UInt8(truncatingIfNeeded: random.next()))
        }
        return out
    }

    /// FNV-1a of the UTF-8 bytes: stable across runs, unlike `hashValue`.
    public static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
