import FacadeProof
import Testing

/// The scanner's nesting limit when a caller names none (the differential checks do not): 200
/// levels are walked, the 201st stops the walk.
@Suite struct WireFeaturesDefaultDepthTests {
    /// `levels` unknown groups (field 30) nested in one another, empty at the bottom.
    static func nestedGroups(_ levels: Int) -> [UInt8] {
        Array([[0xF3, 0x01], [0xF4, 0x01]].map { Array(repeating: $0, count: levels).joined() }.joined())
    }

    @Test func theDefaultLimitWalksTwoHundredLevelsAndStopsAtTheNext() throws {
        let schema = try #require(WireFeaturesTests.schemas.message("wf.Probe"))
        let at = WireFeatures.scan(Self.nestedGroups(200), schema: schema, in: WireFeaturesTests.schemas)
        #expect(at.description == "depth 200")
        let past = WireFeatures.scan(Self.nestedGroups(201), schema: schema, in: WireFeaturesTests.schemas)
        #expect(past.description == "truncated, depth 201")
    }
}
