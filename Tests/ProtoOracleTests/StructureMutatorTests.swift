import ProtoOracle
import ProtoSchema
import Testing

/// The structure-aware mutator of the `structure` fuzz target: seeded, it keeps messages
/// encodable and decodable to themselves, and its edits do change messages.
@Suite struct StructureMutatorTests {
    @Test func mutatedMessagesRoundTripThroughTheOracle() async throws {
        let set = try await Fixtures.foreign()
        let mutator = StructureMutator(schemas: set)
        var messages = RandomMessages(schemas: set, seed: 21)
        var random = SplitMix64(seed: 22)
        var changed = 0
        for index in 0..<300 {
            let next = messages.next()
            var message = try #require(next)
            let original = message
            for _ in 0..<4 { mutator.mutate(&message, &random) }
            if message != original { changed += 1 }
            let bytes = message.serializedBytes()
            let decoded = try DynamicMessage(serializedBytes: bytes, schema: message.schema, in: set)
            #expect(decoded == message, "seed 21/22 message \(index) \(message.fullName): \(hexString(bytes))")
        }
        // Some edits are no-ops (removing from an empty message, a copy without a same-typed
        // field); most are not.
        #expect(changed > 150, "only \(changed) of 300 messages changed")
    }

    @Test func theSameSeedMakesTheSameEdits() async throws {
        let set = try await Fixtures.foreign()
        let mutator = StructureMutator(schemas: set)
        var messages = RandomMessages(schemas: set, seed: 3)
        for _ in 0..<50 {
            let next = messages.next()
            let message = try #require(next)
            var a = message, b = message
            var ra = SplitMix64(seed: 9), rb = SplitMix64(seed: 9)
            mutator.mutate(&a, &ra)
            mutator.mutate(&b, &rb)
            #expect(a == b)
        }
    }

    @Test func crossOverTakesFieldsOnlyFromTheSameType() async throws {
        let set = try await Fixtures.foreign()
        let mutator = StructureMutator(schemas: set)
        var messages = RandomMessages(schemas: set, seed: 4)
        var random = SplitMix64(seed: 5)
        let firstMessage = messages.next(), secondMessage = messages.next()
        let first = try #require(firstMessage), second = try #require(secondMessage)
        try #require(first.fullName != second.fullName)
        #expect(mutator.crossOver(first, second, &random) == first)
        var sameType = RandomMessages(schemas: set, seed: 6, messages: [first.fullName])
        for _ in 0..<50 {
            let otherMessage = sameType.next()
            let other = try #require(otherMessage)
            let crossed = mutator.crossOver(first, other, &random)
            for number in crossed.presentFieldNumbers {
                let content = crossed.content(number: number)
                #expect(content == first.content(number: number) || content == other.content(number: number))
            }
        }
    }
}
