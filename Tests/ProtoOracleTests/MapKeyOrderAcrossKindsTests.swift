@testable import ProtoOracle
import Testing

/// Keys of different kinds never share one map, but the deterministic order must still be a strict
/// total order over every key so sorting cannot trap or depend on input order: kinds rank as
/// declared (int32, int64, uint32, uint64, bool, string) whatever their values.
@Suite struct MapKeyOrderAcrossKindsTests {
    static let byKind: [MapKey] = [.int32(.max), .int64(.min), .uint32(0), .uint64(0), .bool(false), .string([])]

    @Test func keysOfDifferentKindsRankByKindAlone() {
        for (i, a) in Self.byKind.enumerated() {
            for (j, b) in Self.byKind.enumerated() where i != j {
                #expect(MapKey.deterministicOrder(a, b) == (i < j), "\(a) before \(b)")
            }
        }
    }

    @Test func sortingMixedKeysGroupsThemByKind() {
        let shuffled: [MapKey] = [.string([0x61]), .bool(true), .uint64(7), .int32(-1), .uint32(9), .int64(3)]
        #expect(shuffled.sorted(by: MapKey.deterministicOrder) == [.int32(-1), .int64(3), .uint32(9), .uint64(7), .bool(true), .string([0x61])])
    }
}
