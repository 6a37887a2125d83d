import Testing
import NanopbRuntime
import ProtoOracle

/// Seeded mutation of valid encodings through the facade decoder: the guarantees towards untrusted
/// bytes that docs/DESIGN.md lists, checked on every message type of the bundled schema:
///   1. a rejected input throws `NanopbError.decodeFailed` with an offset inside the input
///      (a crash, a trap or a hang fails the run; under `make asan` so does any bad access or leak);
///   5. an accepted input re-encodes to bytes that the facade decodes again to the same bytes,
///      and that the oracle, a conforming parser, accepts.
/// Every mutant is derived from one fixed seed; a failure prints the seed, the message, and the
/// mutant, so it can be replayed and turned into a named regression test.
@Suite struct SeededDecodeMutationTests {
    static let seed: UInt64 = 0x5EED_DEC0DE
    static let mutantsPerMessage = 64

    /// One full exemplar per message type (names without a oneof or edge suffix).
    static let inputs = generatedExemplars.filter { !$0.name.contains("#") && !$0.name.contains("!") }

    @Test(arguments: inputs)
    func mutatedEncodingsFailCleanlyOrRoundTripStably(_ exemplar: GeneratedExemplar) async throws {
        let loaded = try await BundledSchema.loaded()
        let schema = try #require(loaded.schemas.message(exemplar.messageType))
        let original = try exemplar.build()
        var random = SplitMix64(seed: Self.seed ^ UInt64(truncatingIfNeeded: exemplar.name.hashValueStable))
        var accepted = 0, rejected = 0
        for index in 0..<Self.mutantsPerMessage {
            let mutant = Self.mutate(original, &random)
            let context = "seed \(Self.seed) \(exemplar.name) mutant \(index): \(hexPreview(mutant, limit: 4096))"
            let first: [UInt8]
            do {
                first = try exemplar.decodeReencode(mutant)
            } catch let error as NanopbError {
                guard case let .decodeFailed(reason, offset) = error else {
                    Issue.record("decode threw \(error), not decodeFailed — \(context)"); continue
                }
                #expect(reason != .other("(no message)") && offset >= 0 && offset <= mutant.count, "\(error) — \(context)")
                rejected += 1
                continue
            }
            accepted += 1
            let second = try exemplar.decodeReencode(first)
            #expect(second == first, "re-encoding is not stable — \(context)")
            do {
                _ = try DynamicMessage(serializedBytes: first, schema: schema, in: loaded.schemas)
            } catch let error where error.reason == .invalidUTF8 {
                // Pinned deviation (docs/deviations.md): nanopb keeps invalid UTF-8 in proto3 strings.
            } catch {
                Issue.record("the oracle rejects the facade's re-encoding (\(error)) — \(context)")
            }
        }
        #expect(accepted + rejected == Self.mutantsPerMessage)
    }

    /// One random edit: flip a bit, overwrite a byte, truncate, insert random bytes, duplicate or
    /// delete a slice. Inputs stay small (at most twice the original plus 16 bytes).
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
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
}

extension String {
    /// FNV-1a of the UTF-8 bytes: stable across runs, unlike `hashValue`.
    var hashValueStable: UInt64 {
        utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
