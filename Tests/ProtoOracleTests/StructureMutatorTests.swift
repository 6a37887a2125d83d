import OracleCheck
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

    /// Half of all edits descend into a present submessage. An edit made inside keeps most of the
    /// submessage's fields as they were; replacing the submessage from the top level (the only
    /// way a mutator that never descends can change it) keeps none of these distinctive values.
    @Test func editsReachInsideAPresentSubmessage() async throws {
        let set = try await Fixtures.wire()
        let mutator = StructureMutator(schemas: set)
        var child = try empty("wire3.Scalars", set)
        child.set(number: 2, .int64(-7_340_032_123_456))  // i64
        child.set(number: 6, .string(Array("kept inside".utf8)))  // s
        child.set(number: 8, .double(3.25))  // d
        var parent = try empty("wire3.Scalars", set)
        parent.set(number: 16, .message(child))  // child
        let kept: [Int32] = [2, 6, 8]
        var editedInside = 0
        for seed in 0..<200 as Range<UInt64> {
            var message = parent
            var random = SplitMix64(seed: seed)
            mutator.mutate(&message, &random)
            guard let inner = message[number: 16]?.messageValue, inner != child else { continue }
            let unchanged = kept.filter { inner.content(number: $0) == child.content(number: $0) }
            if unchanged.count >= 2 { editedInside += 1 }
        }
        // About half the calls descend, and most inner edits (add, remove, change, copy) touch
        // one field; 200 seeds give about 80. A mutator that stays at the top gives 0.
        #expect(editedInside >= 40, "only \(editedInside) of 200 edits changed the submessage from inside")
    }

    /// A five-level chain, level 0 outermost: `make(level, next)` builds one level around the next.
    static func chain(_ make: (Int, DynamicMessage?) throws -> DynamicMessage) rethrows -> DynamicMessage {
        var inner: DynamicMessage?
        for level in (0...4).reversed() { inner = try make(level, inner) }
        return inner!
    }

    /// The levels of `chain` that single edits land on, over 400 seeds. An edit at level k changes
    /// levels 0...k and leaves level k + 1 as it was (an edit of the link to level k + 1 changes
    /// that level too, and is not attributed).
    static func levelsEdited(by mutator: StructureMutator, _ chain: DynamicMessage,
                             next: (DynamicMessage) -> DynamicMessage?) -> Set<Int> {
        func level(_ message: DynamicMessage, _ depth: Int) -> DynamicMessage? {
            var current: DynamicMessage? = message
            for _ in 0..<depth { current = current.flatMap(next) }
            return current
        }
        var editedAt: Set<Int> = []
        for seed in 0..<400 as Range<UInt64> {
            var message = chain
            var random = SplitMix64(seed: seed)
            mutator.mutate(&message, &random)
            for k in 0...3 where level(message, k) != level(chain, k) && level(message, k + 1) == level(chain, k + 1) {
                editedAt.insert(k)
            }
        }
        return editedAt
    }

    /// `maxDescent` is the deepest level an edit reaches: with 2, edits land at levels 0, 1 and 2
    /// of a five-level chain and never below.
    @Test func editsReachExactlyMaxDescentLevelsDown() async throws {
        let set = try await Fixtures.wire()
        var mutator = StructureMutator(schemas: set)
        mutator.maxDescent = 2
        // wire3.Scalars nested through `child` (16), each level named in its string field `s` (6).
        let chain = try Self.chain { level, next in
            var message = try empty("wire3.Scalars", set)
            message.set(number: 6, .string(Array("level \(level)".utf8)))
            if let next { message.set(number: 16, .message(next)) }
            return message
        }
        let editedAt = Self.levelsEdited(by: mutator, chain) { $0[number: 16]?.messageValue }
        #expect(editedAt == [0, 1, 2], "edits landed at levels \(editedAt.sorted())")
    }

    /// The same limit through repeated submessages: a chain of single-element `kids` lists.
    @Test func editsThroughRepeatedSubmessagesReachExactlyMaxDescentLevelsDown() throws {
        let set = try InlineSchema.compile(["n.proto": "syntax = \"proto3\"; package n; message Node { string s = 1; repeated Node kids = 2; }"])
        var mutator = StructureMutator(schemas: set)
        mutator.maxDescent = 2
        let chain = try Self.chain { level, next in
            var message = try empty("n.Node", set)
            message.set(number: 1, .string(Array("level \(level)".utf8)))
            if let next { message.setRepeated(number: 2, [.message(next)]) }
            return message
        }
        let editedAt = Self.levelsEdited(by: mutator, chain) { $0.repeated(number: 2).first?.messageValue }
        #expect(editedAt == [0, 1, 2], "edits landed at levels \(editedAt.sorted())")
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
