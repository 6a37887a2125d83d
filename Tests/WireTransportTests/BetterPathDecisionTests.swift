import Testing
@testable import WireTransport

/// When a ready connection reports a better path: only while its route is usable and leaves by
/// another interface than at ready, both interfaces known. The namespace test
/// (`PathMonitorTests`) shows the handler calls; this pins every input of the verdict.
@Suite struct BetterPathDecisionTests {
    @Test func aBetterPathNeedsAUsableRouteThroughAnotherKnownInterface() {
        let cases: [(satisfied: Bool, now: Int32?, ready: Int32?, better: Bool)] = [
            (true, 3, 2, true),
            (false, 3, 2, false),   // the route went: viability reports that, not a better path
            (true, 2, 2, false),    // the same interface as at ready
            (true, nil, 2, false),  // no index now
            (true, 3, nil, false),  // no index at ready
            (true, nil, nil, false),
        ]
        for c in cases {
            #expect(Connection.isBetterPath(satisfied: c.satisfied, routeInterface: c.now, readyInterface: c.ready) == c.better, "\(c)")
        }
    }
}
