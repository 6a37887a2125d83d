import ProtoOracle
import ProtoSchema
import Testing

/// Presence, oneofs, maps, equality and required-field checking of `DynamicMessage`.
@Suite struct DynamicMessageTests {
    let S = "wire3.Scalars"
    let L = "wire2.Legacy"

    @Test func settingAOneofMemberClearsItsSiblings() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message["pick_int"] = .int32(3)
        message["pick_str"] = .text("x")
        #expect(!message.has(named: "pick_int"))
        #expect(message["pick_str"] == .text("x"))
        let oneof = try #require(message.schema.realOneofs.first)
        #expect(message.presentMember(of: oneof)?.name == "pick_str")
    }

    @Test func implicitPresenceZeroIsAbsent() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message["i32"] = .int32(4)
        message["i32"] = .int32(0)
        #expect(!message.has(named: "i32"))
        #expect(message == (try empty(S, set)))
    }

    @Test func explicitPresenceZeroIsPresent() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message["opt"] = .int32(0)
        #expect(message.has(named: "opt"))
        #expect(message != (try empty(S, set)))
        var legacy = try empty(L, set)
        legacy["zero_default"] = .int32(0)
        #expect(legacy.has(named: "zero_default"))
    }

    @Test func emptyRepeatedAndMapFieldsAreAbsent() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message.setRepeated(number: 13, [])
        message.setMap(number: 17, ProtoMap())
        #expect(message.presentFieldNumbers.isEmpty)
        message.append(number: 13, .int32(1))
        #expect(message.repeated(named: "packed") == [.int32(1)])
    }

    @Test func aNameTheMessageDoesNotDeclareHasNoRepeatedValues() async throws {
        let set = try await Fixtures.wire()
        var message = try empty(S, set)
        message.append(number: 13, .int32(1))
        #expect(message.field(named: "no_such_field") == nil)
        #expect(message.repeated(named: "no_such_field") == [])
    }

    @Test func mapsCompareIgnoringEntryOrder() async throws {
        let set = try await Fixtures.wire()
        var a = try empty(S, set)
        var b = try empty(S, set)
        a.setMap(number: 17, ProtoMap([(.int32(1), .text("x")), (.int32(2), .text("y"))]))
        b.setMap(number: 17, ProtoMap([(.int32(2), .text("y")), (.int32(1), .text("x"))]))
        #expect(a == b)
        #expect(a.serializedBytes() != b.serializedBytes())
        b.setMap(number: 17, ProtoMap([(.int32(2), .text("y")), (.int32(1), .text("z"))]))
        #expect(a != b)
    }

    @Test func mapKeepsInsertionOrderAndReplacesValuesInPlace() {
        var map = ProtoMap()
        map[.int32(3)] = .text("a")
        map[.int32(1)] = .text("b")
        map[.int32(3)] = .text("c")
        #expect(map.keys == [.int32(3), .int32(1)])
        #expect(map[.int32(3)] == .text("c"))
        map[.int32(3)] = nil
        #expect(map.keys == [.int32(1)])
    }

    @Test func floatsCompareByBitPattern() {
        #expect(ProtoValue.double(.nan) == .double(.nan))
        #expect(ProtoValue.double(.nan) != .double(Double(bitPattern: 0x7FF8_0000_0000_0001)))
        #expect(ProtoValue.double(0) != .double(-0.0))
        #expect(ProtoValue.float(.nan) == .float(.nan))
        #expect(ProtoValue.float(0) != .float(-0.0))
    }

    @Test func stringsAreStoredAsBytes() async throws {
        let set = try await Fixtures.wire()
        var legacy = try empty(L, set)
        legacy["s"] = .string([0xFF, 0x00])
        #expect(legacy["s"]?.stringValue == nil)
        legacy["s"] = .text("ü")
        #expect(legacy["s"] == .string([0xC3, 0xBC]))
        #expect(legacy["s"]?.stringValue == "ü")
    }

    @Test func unknownFieldsTakePartInEquality() async throws {
        let set = try await Fixtures.wire()
        var a = try empty(S, set)
        a.unknownFields = [.varint(30, 1), .varint(31, 2)]
        var b = try empty(S, set)
        b.unknownFields = [.varint(31, 2), .varint(30, 1)]
        #expect(a != b)
    }

    @Test func missingRequiredFieldsAreListedWithPaths() async throws {
        let set = try await Fixtures.foreign()
        var record = try empty("foreign.two.Record", set)
        var required = try empty("foreign.two.Required", set)
        required["a"] = .int32(1)
        record["child"] = .message(required)
        #expect(record.missingRequiredFields == ["id", "name", "child.level"])
        #expect(!record.isInitialized)
    }
}
