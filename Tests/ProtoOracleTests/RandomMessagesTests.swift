@testable import ProtoOracle
import ProtoSchema
import Testing

/// The seeded generator: deterministic, valid messages of any schema.
@Suite struct RandomMessagesTests {
    @Test func splitMix64MatchesTheReferenceSequence() {
        // First outputs of SplitMix64 from seed 0 (the published reference values).
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func sameSeedGivesTheSameMessages() async throws {
        let set = try await Fixtures.foreign()
        var a = RandomMessages(schemas: set, seed: 99)
        var b = RandomMessages(schemas: set, seed: 99)
        var c = RandomMessages(schemas: set, seed: 100)
        var differs = false
        for _ in 0..<100 {
            let x = a.next(), y = b.next(), z = c.next()
            #expect(x != nil && x == y)
            if x != z { differs = true }
        }
        #expect(differs)
    }

    @Test func randomMessagesRoundTripThroughTheOracle() async throws {
        let set = try await Fixtures.foreign()
        var random = RandomMessages(schemas: set, seed: 5)
        random.allowNaNPayloads = true
        for index in 0..<1_000 {
            let next = random.next()
            let message = try #require(next)
            let bytes = message.serializedBytes()
            let decoded = try DynamicMessage(serializedBytes: bytes, schema: message.schema, in: set)
            #expect(decoded == message, "seed 5 message \(index) \(message.fullName): \(hexString(bytes))")
        }
    }

    @Test func messagesNestUpToMaxDepthLevelsBelowTheRootAndNoFurther() async throws {
        // foreign.three.Tree nests through `parent`, `children`, oneof and map-free paths, with no
        // required field that could recurse past the limit.
        let set = try await Fixtures.foreign()
        for limit in [0, 1, 4] {
            var random = RandomMessages(schemas: set, seed: 21, messages: ["foreign.three.Tree"])
            random.maxDepth = limit
            var deepest = 0
            for _ in 0..<300 {
                let next = random.next()
                deepest = max(deepest, try #require(next).nestingDepth)
            }
            #expect(deepest == limit, "maxDepth \(limit)")
        }
    }

    @Test func randomMessagesAreValidForTheirSchema() async throws {
        let set = try await Fixtures.foreign()
        var random = RandomMessages(schemas: set, seed: 11)
        for _ in 0..<500 {
            let next = random.next()
            let message = try #require(next)
            for oneof in message.schema.realOneofs {
                #expect(oneof.fieldNumbers.filter { message.has(number: $0) }.count <= 1)
            }
            #expect(message.isInitialized, "\(message.fullName): \(message.missingRequiredFields)")
        }
    }
}

