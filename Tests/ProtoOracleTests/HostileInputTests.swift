import ProtoOracle
import ProtoSchema
import Testing

/// Guarantees towards untrusted bytes: every input either decodes or throws a typed error whose
/// offset lies within the input (at most its length, for a value truncated at the very end);
/// nothing traps or hangs.
@Suite struct HostileInputTests {
    @Test func mutatedEncodingsDecodeOrFailWithAnOffsetInsideTheInput() async throws {
        let set = try await Fixtures.foreign()
        let exemplars = Exemplars(schemas: set).all().filter { $0.message.serializedSize() < 4_096 }
        var rng = SplitMix64(seed: 2024)
        var rejected = 0
        for round in 0..<5_000 {
            let exemplar = exemplars[rng.below(exemplars.count)]
            var input = exemplar.message.serializedBytes()
            for _ in 0..<(1 + rng.below(4)) {
                guard !input.isEmpty else { break }
                let position = rng.below(input.count)
                switch rng.below(4) {
                case 0: input[position] = UInt8(truncatingIfNeeded: rng.next())
                case 1: input.remove(at: position)
                case 2: input.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)
                default: input.removeLast(rng.below(min(input.count, 8)) + 1)
                }
            }
            do {
                let decoded = try DynamicMessage(serializedBytes: input, schema: exemplar.message.schema, in: set)
                // Whatever decodes re-encodes and decodes to the same message.
                let again = try DynamicMessage(serializedBytes: decoded.serializedBytes(), schema: decoded.schema, in: set)
                #expect(again == decoded, "round \(round) \(exemplar.name): \(hexString(input))")
            } catch {  // typed: OracleDecodeError
                rejected += 1
                // A truncated value may start exactly at the end of the input.
                #expect(error.offset >= 0 && error.offset <= input.count, "round \(round): \(error)")
            }
        }
        #expect(rejected > 0)
    }

    @Test func deepNestingFailsCleanlyInsteadOfExhaustingTheStack() async throws {
        let set = try await Fixtures.wire()
        let schema = try #require(set.message("wire3.Scalars"))
        let groups = [UInt8](repeating: 0x8b, count: 1) + [0x02]  // unknown group 33, opened 100,000 times
        let input = Array([[UInt8]](repeating: groups, count: 100_000).joined())
        #expect(throws: OracleDecodeError(.nestingTooDeep, at: 200)) {
            try DynamicMessage(serializedBytes: input, schema: schema, in: set)
        }
    }

    @Test func siblingUnknownGroupsDoNotAddUpToTheNestingLimit() async throws {
        let set = try await Fixtures.wire()
        let schema = try #require(set.message("wire3.Scalars"))
        let group: [UInt8] = [0x8b, 0x02, 0x8c, 0x02]  // unknown group 33, opened and closed
        let input = Array([[UInt8]](repeating: group, count: 150).joined())
        let message = try DynamicMessage(serializedBytes: input, schema: schema, in: set)
        #expect(message.unknownFields.count == 150, "every group kept, none refused as too deep")
    }

    @Test func emptySubmessagesInBulkDecodeInLinearSpace() async throws {
        // 200,000 empty repeated submessages: 3 bytes each on the wire. Decoding must finish and
        // keep every element (a quadratic append or an over-reservation would show here).
        let set = try await Fixtures.foreign()
        let schema = try #require(set.message("foreign.three.Repeats"))
        let input = Array([[UInt8]](repeating: [0xBA, 0x01, 0x00], count: 200_000).joined())
        let message = try DynamicMessage(serializedBytes: input, schema: schema, in: set)
        #expect(message.repeated(named: "messages").count == 200_000)
    }
}
