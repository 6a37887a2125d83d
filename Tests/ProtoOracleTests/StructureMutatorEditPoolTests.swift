import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

/// Which fields an edit may pick: `add` any declared field, `change` only a present one (any
/// declared field when none is present). The messages here have no submessages, so the first
/// draw of an edit's generator is its kind; a copy of the generator tells the kind in advance.
@Suite struct StructureMutatorEditPoolTests {
    /// Five singular fields of five types: no `copy` target exists, no `clone` source.
    static func schema() throws -> (SchemaSet, String) {
        let set = try InlineSchema.compile(["pool.proto": """
            syntax = "proto3"; package pool;
            message Flat { int32 a = 1; string b = 2; bool c = 3; double d = 4; bytes e = 5; }
            """])
        return (set, "pool.Flat")
    }

    /// Each seed's edit kind, and the field numbers its edit made present that were not.
    static func edits(of base: DynamicMessage, in set: SchemaSet, seeds: Range<UInt64>) -> [(StructureMutator.Edit, Set<Int32>)] {
        let mutator = StructureMutator(schemas: set)
        return seeds.map { seed in
            var probe = SplitMix64(seed: seed), random = SplitMix64(seed: seed)
            let kind = StructureMutator.Edit.allCases[probe.below(StructureMutator.Edit.allCases.count)]
            var message = base
            mutator.mutate(&message, &random)
            return (kind, Set(message.presentFieldNumbers).subtracting(base.presentFieldNumbers))
        }
    }

    @Test func withAFieldPresentAChangeEditsOnlyPresentFieldsAndAnAddReachesTheOthers() throws {
        let (set, name) = try Self.schema()
        var base = try empty(name, set)
        base.set(number: 1, .int32(7))
        let edits = Self.edits(of: base, in: set, seeds: 0 ..< 200)
        let changes = edits.filter { $0.0 == .change }, adds = edits.filter { $0.0 == .add }
        #expect(!changes.isEmpty && changes.allSatisfy { $0.1.isEmpty }, "a change made an absent field present")
        #expect(adds.contains { !$0.1.isEmpty }, "no add made an absent field present")
    }

    @Test func withNoFieldPresentAChangePicksFromTheDeclaredFields() throws {
        let (set, name) = try Self.schema()
        let edits = Self.edits(of: try empty(name, set), in: set, seeds: 0 ..< 200)
        #expect(edits.contains { $0.0 == .change && !$0.1.isEmpty }, "no change of an empty message set a field")
    }
}
