@testable import ProtoOracle
import OracleCheck
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

    @Test func theValueMixReachesEveryBoundaryValue() async throws {
        // A third of the scalars are boundary values: varint length edges, 32- and 64-bit limits,
        // and the float specials. Over a few thousand messages each must turn up.
        let set = try await Fixtures.foreign()
        var random = RandomMessages(schemas: set, seed: 3, messages: ["foreign.three.AllScalars"])
        var u64: Set<UInt64> = [], i32: Set<Int32> = [], floats: Set<UInt32> = [], doubles: Set<UInt64> = []
        for _ in 0..<4_000 {
            let next = random.next()
            let message = try #require(next)
            if case let .uint64(v)? = message["f_uint64"] { u64.insert(v) }
            if case let .int32(v)? = message["f_int32"] { i32.insert(v) }
            if case let .float(v)? = message["f_float"] { floats.insert(v.bitPattern) }
            if case let .double(v)? = message["f_double"] { doubles.insert(v.bitPattern) }
        }
        let edges: [UInt64] = [1, 2, 127, 128, 255, 300, 16_383, 16_384, 1 << 31, (1 << 31) - 1, 1 << 32, 1 << 63, .max, .max - 1]
        #expect(edges.filter { !u64.contains($0) }.isEmpty, "missing uint64 edges")
        #expect([Int32.min, .max, -1, -2, 127, 128, 16_384].filter { !i32.contains($0) }.isEmpty, "missing int32 edges")
        let floatEdges: [Float] = [-0.0, 1, -1, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                   -.leastNormalMagnitude, 0.1, 1e-30]
        #expect(floatEdges.filter { !floats.contains($0.bitPattern) }.isEmpty, "missing float specials")
        let doubleEdges: [Double] = [-0.0, 1, -1, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                     -.leastNormalMagnitude, 0.1, 1e300]
        #expect(doubleEdges.filter { !doubles.contains($0.bitPattern) }.isEmpty, "missing double specials")
        #expect(floats.contains(Float.nan.bitPattern) && doubles.contains(Double.nan.bitPattern), "the canonical NaN")
    }

    @Test func positiveZeroTurnsUpInFloatingFieldsWithPresence() throws {
        // Without presence (proto3 above) +0 is the default and never set; with presence it is a
        // value of its own, written on the wire as -0 is, and the generator must reach both.
        let set = try InlineSchema.compile(["zero.proto": "syntax = \"proto2\"; package z; message Z { optional double d = 1; optional float f = 2; }"])
        var random = RandomMessages(schemas: set, seed: 13, messages: ["z.Z"])
        var doubles: Set<UInt64> = [], floats: Set<UInt32> = []
        for _ in 0..<2_000 {
            let next = random.next()
            let message = try #require(next)
            if case let .double(v)? = message["d"] { doubles.insert(v.bitPattern) }
            if case let .float(v)? = message["f"] { floats.insert(v.bitPattern) }
        }
        #expect(doubles.contains(0) && doubles.contains((-0.0 as Double).bitPattern), "both double zeros")
        #expect(floats.contains(0) && floats.contains((-0.0 as Float).bitPattern), "both float zeros")
    }

    /// Three in four random messages set one member of a oneof (each member in turn), the rest
    /// none: both the empty oneof and every member are exercised, the members most.
    @Test func aOneofGetsAMemberInThreeMessagesOfFour() throws {
        let set = try InlineSchema.compile(["one.proto": "syntax = \"proto3\"; package o; message O { oneof pick { int32 a = 1; string b = 2; } }"])
        var random = RandomMessages(schemas: set, seed: 21, messages: ["o.O"])
        var counts = ["a": 0, "b": 0, "none": 0]
        for _ in 0..<800 {
            let next = random.next()
            let message = try #require(next)
            let member = message.has(named: "a") ? "a" : message.has(named: "b") ? "b" : "none"
            counts[member, default: 0] += 1
        }
        #expect((150...250).contains(counts["none"]!), "\(counts)")
        #expect(counts["a"]! > 150 && counts["b"]! > 150, "\(counts)")
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

    @Test func undeclaredEnumNumbersAppearInOpenEnumFieldsAndNeverInClosedOnes() throws {
        let set = try InlineSchema.compile([
            "open.proto": "syntax = \"proto3\"; package e; enum Color { RED = 0; GREEN = 1; } message P { Color c = 1; }",
            "closed.proto": "syntax = \"proto2\"; package e; enum Shade { DARK = 1; LIGHT = 2; } message Q { optional Shade s = 1; }",
        ])
        var random = RandomMessages(schemas: set, seed: 7, messages: ["e.P", "e.Q"])
        var open: [Int32] = [], closed: [Int32] = []
        for _ in 0..<800 {
            let next = random.next()
            let message = try #require(next)
            if case let .enumValue(v)? = message["c"] { open.append(v) }
            if case let .enumValue(v)? = message["s"] { closed.append(v) }
        }
        #expect(open.contains { $0 != 0 && $0 != 1 }, "a proto3 enum field is open: undeclared numbers must turn up")
        #expect(open.contains(1), "declared values too")
        #expect(!closed.isEmpty && closed.allSatisfy { $0 == 1 || $0 == 2 }, "a proto2 enum field is closed: only declared values")
    }
}

