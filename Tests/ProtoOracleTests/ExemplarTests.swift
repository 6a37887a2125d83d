import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

/// The exemplar rules documented in Sources/Proof/ProtoOracle/Exemplars.swift.
@Suite struct ExemplarTests {
    @Test func fullExemplarFollowsTheValueRules() async throws {
        let set = try await Fixtures.foreign()
        let schema = try #require(set.message("foreign.three.AllScalars"))
        let message = Exemplars(schemas: set).full(for: schema)
        #expect(message["f_int32"] == .int32(5))
        #expect(message["f_sint32"] == .int32(-17))
        #expect(message["f_sfixed64"] == .int64(-16))
        #expect(message["f_uint64"] == .uint64(4))
        #expect(message["f_float"] == .float(2.5))
        #expect(message["f_double"] == .double(1.25))
        #expect(message["f_bool"] == .bool(true))
        #expect(message["f_string"] == .text("f_string"))
        #expect(message["f_bytes"] == .bytes(Array("f_bytes".utf8)))
        #expect(message["f_enum"] == .enumValue(1))  // first non-zero: MOOD_HAPPY
        #expect(message["o_int32"] == .int32(21))
        #expect(message.presentFieldNumbers.count == schema.fields.count)
    }

    @Test func theSubmessageBudgetPopulatesExactlyThatManySubmessagesInFieldOrder() throws {
        let set = try InlineSchema.compile(["b.proto": """
            syntax = "proto3"; package b;
            message Leaf { int32 v = 1; }
            message Root { Leaf a = 1; Leaf b = 2; Leaf c = 3; Leaf d = 4; Leaf e = 5; int32 n = 6; }
            """])
        let root = try #require(set.message("b.Root"))
        for budget in 0...5 {
            let message = Exemplars(schemas: set, maxSubmessages: budget).full(for: root)
            let populated = message.presentFieldNumbers.filter { message[number: $0]?.messageValue != nil }
            #expect(populated == Array(1...5).prefix(budget).map(Int32.init), "budget \(budget): \(populated)")
            #expect(message[number: 6] == .int32(6), "scalars are not counted against the budget")
        }
    }

    @Test func aMapWithMessageValuesUnderTheCutIsLeftEmpty() throws {
        let set = try InlineSchema.compile(["m.proto": """
            syntax = "proto3"; package m;
            message Leaf { int32 v = 1; }
            message Node { map<string, Node> children = 1; map<string, Leaf> leaves = 2; }
            """])
        let node = try #require(set.message("m.Node"))
        let full = Exemplars(schemas: set).full(for: node)
        #expect(full.content(number: 1) == nil, "a map whose value type is on the path stays empty: \(full)")
        let leaves = try #require(full.content(number: 2), "a map of another type gets its entry")
        guard case let .map(map) = leaves else { Issue.record("\(leaves)"); return }
        #expect(map.entries.count == 1 && map.entries.first?.value.messageValue?[number: 1] == .int32(1))
        let starved = Exemplars(schemas: set, maxSubmessages: 0).full(for: node)
        #expect(starved.presentFieldNumbers.isEmpty, "with no submessage budget both maps stay empty: \(starved)")
    }

    @Test func repeatedFieldsGetTwoElementsAndMapsOneEntry() async throws {
        let set = try await Fixtures.foreign()
        let exemplars = Exemplars(schemas: set)
        let repeats = exemplars.full(for: try #require(set.message("foreign.three.Repeats")))
        #expect(repeats.repeated(named: "r_int32") == [.int32(5), .int32(6)])
        #expect(repeats.repeated(named: "r_string") == [.text("r_string"), .text("r_string_2")])
        #expect(repeats.repeated(named: "r_bool") == [.bool(true), .bool(false)])
        #expect(repeats.repeated(named: "r_enum") == [.enumValue(1), .enumValue(0)])
        #expect(repeats.repeated(named: "messages").count == 2)
        let maps = exemplars.full(for: try #require(set.message("foreign.three.Maps")))
        #expect(maps.map(named: "by_int32") == ProtoMap([(.int32(1), .text("by_int32"))]))
        #expect(maps.map(named: "by_bool").keys == [.bool(true)])
        #expect(maps.map(named: "by_sint32") == ProtoMap([(.int32(-5), .float(5.5))]))
    }

    @Test func oneofGetsItsFirstMemberAndOneVariantPerMember() async throws {
        let set = try await Fixtures.foreign()
        let schema = try #require(set.message("foreign.three.Tree"))
        let exemplars = Exemplars(schemas: set)
        let full = exemplars.full(for: schema)
        #expect(full.has(named: "number") && !full.has(named: "text") && full.has(named: "weight"))
        let names = exemplars.oneofVariants(for: schema).map(\.name)
        #expect(names == [
            "foreign.three.Tree#payload=number", "foreign.three.Tree#payload=text", "foreign.three.Tree#payload=forest",
            "foreign.three.Tree#payload=at", "foreign.three.Tree#payload=mood", "foreign.three.Tree#payload=blob",
            "foreign.three.Tree#second=weight", "foreign.three.Tree#second=scalars",
        ])
        for variant in exemplars.oneofVariants(for: schema) {
            let member = String(variant.name.split(separator: "=").last ?? "")
            #expect(variant.message.has(named: member), "\(variant.name)")
        }
    }

    @Test func recursionIsCutByLeavingTheFieldUnset() async throws {
        let set = try await Fixtures.foreign()
        let tree = Exemplars(schemas: set).full(for: try #require(set.message("foreign.three.Tree")))
        #expect(!tree.has(named: "parent"))  // Tree is on the path
        #expect(!tree.has(named: "children"))
        let leaf = try #require(tree["leaf"]?.messageValue)
        let cell = try #require(leaf["vein"]?.messageValue?["cell"]?.messageValue)
        #expect(cell["id"] == .int32(-1))
        #expect(!cell.has(named: "back"))
    }

    @Test func proto2ExemplarsAreInitialized() async throws {
        let set = try await Fixtures.foreign()
        for exemplar in Exemplars(schemas: set).all() where exemplar.message.schema.syntax == .proto2 {
            #expect(exemplar.message.isInitialized, "\(exemplar.name): \(exemplar.message.missingRequiredFields)")
        }
    }

    @Test func edgeExemplarsCarryTheEdgeValues() async throws {
        let set = try await Fixtures.foreign()
        let schema = try #require(set.message("foreign.three.AllScalars"))
        let edges = Dictionary(uniqueKeysWithValues: Exemplars(schemas: set).edges(for: schema).map { ($0.name, $0.message) })
        let prefix = "foreign.three.AllScalars!"
        #expect(Set(edges.keys) == Set(EdgeKind.allCases.map { prefix + $0.rawValue }))
        #expect(edges[prefix + "min"]?["f_int64"] == .int64(.min))
        #expect(edges[prefix + "max"]?["f_uint32"] == .uint32(.max))
        #expect(edges[prefix + "max"]?["f_enum"] == .enumValue(1_000_000))
        #expect(edges[prefix + "min"]?["f_enum"] == .enumValue(-3))
        #expect(edges[prefix + "negative"]?["f_int32"] == .int32(-1))
        #expect(edges[prefix + "nan"]?["f_double"] == .double(.nan))
        #expect(edges[prefix + "negativeZero"]?["f_float"] == .float(-0.0))
        #expect(edges[prefix + "infinity"]?["f_double"] == .double(.infinity))
        #expect(edges[prefix + "nonASCII"]?["f_string"] == .text("ü€😀"))
        #expect(edges[prefix + "emptyString"]?["o_string"] == .text(""))
        #expect(edges[prefix + "largeBytes"]?["f_bytes"] == .bytes((0..<100_000).map { UInt8($0 % 251) }))
        #expect(edges[prefix + "nanPayload"]?.isTextExact == false)
        #expect(edges[prefix + "nan"]?.isTextExact == true)
    }

    @Test func edgeExemplarsAreOnlyMadeWhenTheEdgeApplies() async throws {
        let set = try await Fixtures.foreign()
        let shared = try #require(set.message("foreign.shared.Shared"))  // string + int64: no float edges
        let names = Exemplars(schemas: set).edges(for: shared).map(\.name)
        #expect(names == ["min", "max", "negative", "emptyString", "nonASCII"].map { "foreign.shared.Shared!\($0)" })
        #expect(Exemplars(schemas: set).edges(for: try #require(set.message("foreign.three.Empty"))).isEmpty)
    }

    @Test func exemplarNamesAreUniqueAndStable() async throws {
        let set = try await Fixtures.foreign()
        let first = Exemplars(schemas: set).all()
        let second = Exemplars(schemas: set).all()
        #expect(Set(first.map(\.name)).count == first.count)
        #expect(first.map(\.name) == second.map(\.name))
        #expect(first.map { $0.message.serializedBytes() } == second.map { $0.message.serializedBytes() })
        // Every message except map entries has a full exemplar, named by its full name.
        let messageNames = set.messages.filter { !$0.isMapEntry }.map(\.fullName)
        #expect(Set(messageNames).isSubset(of: Set(first.map(\.name))))
    }
}
