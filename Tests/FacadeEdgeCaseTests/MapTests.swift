// Maps are repeated entry messages in nanopb: decoded entries keep their wire order (and their
// duplicates), and facade equality compares encodings. Maps are equal only semantically: compare
// the dictionaries, not the messages, when order must not matter.

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle

@Suite struct MapTests {
    /// One StreamHeader.attributes (field 6) entry.
    static func entry(_ key: String, _ value: String) -> [UInt8] {
        lengthDelimited(6, lengthDelimited(1, Array(key.utf8)) + lengthDelimited(2, Array(value.utf8)))
    }

    @Test func mapsWithEntriesInDifferentOrdersAreEqualOnlySemantically() async throws {
        let oracle = try await Oracle.bundled()
        let ab = Self.entry("a", "1") + Self.entry("b", "2") + Self.entry("c", "3")
        let ca = Self.entry("c", "3") + Self.entry("a", "1") + Self.entry("b", "2")

        let first = try Rtm_StreamHeader(serializedBytes: ab)
        let second = try Rtm_StreamHeader(serializedBytes: ca)
        #expect(first.attributes == ["a": "1", "b": "2", "c": "3"])
        #expect(first.attributes == second.attributes)       // the dictionaries agree
        #expect(first != second)                             // the messages do not
        #expect(try first.serializedBytes() == ab)
        #expect(try second.serializedBytes() == ca)          // wire order kept
        // A builder stores entries in key order, so a built map equals only the sorted encoding.
        let built = Rtm_StreamHeader.with { $0.attributes = ["c": "3", "b": "2", "a": "1"] }
        #expect(built == first && built != second)

        // The oracle compares maps as maps.
        #expect(try oracle.decode(ab, as: "rtm.StreamHeader") == oracle.decode(ca, as: "rtm.StreamHeader"))
    }

    @Test func aDuplicateMapKeyKeepsBothEntriesOnReEncode() async throws {
        // The specification keeps the last entry for a key; nanopb appends the second entry.
        let oracle = try await Oracle.bundled()
        let wire = Self.entry("a", "1") + Self.entry("a", "2")
        let facade = try Rtm_StreamHeader(serializedBytes: wire)
        #expect(facade.attributes == ["a": "2"])             // the getter keeps the last, like the spec
        #expect(try facade.serializedBytes() == wire)        // but both entries are re-encoded

        let decoded = try oracle.decode(wire, as: "rtm.StreamHeader")
        #expect(decoded.map(number: 6).count == 1)
        #expect(decoded.map(number: 6)[.text("a")] == .text("2"))
        #expect(decoded.serializedBytes() == Self.entry("a", "2"))
    }

    @Test func aBuiltBoolKeyedMapWritesFalseBeforeTrue() async throws {
        // A builder writes map entries in ascending key order for every key type; for bool keys that
        // is false, then true. StatsSnapshot.bytes_by_retransmitted is field 13, map<bool, uint64>.
        let oracle = try await Oracle.bundled()
        func entry(_ key: Bool, _ value: UInt64) -> [UInt8] {
            lengthDelimited(13, [0x08, key ? 1 : 0] + [0x10] + varint(value))
        }
        let built = Rtm_StatsSnapshot.with { $0.bytesByRetransmitted = [true: 7, false: 3] }
        #expect(try built.serializedBytes() == entry(false, 3) + entry(true, 7))
        #expect(built.bytesByRetransmitted == [false: 3, true: 7])
        let decoded = try oracle.decode(built.serializedBytes(), as: "rtm.StatsSnapshot")
        #expect(decoded.map(named: "bytes_by_retransmitted").count == 2)
    }
}
