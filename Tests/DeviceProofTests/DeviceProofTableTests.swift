// The device table `wireproof prove` prints: file names padded to 36 columns, then each count
// right-aligned under its heading, one space between columns; the peer's columns only with a peer.

import Testing
@testable import DeviceProof

@Suite struct DeviceProofTableTests {
    /// The table of one file, a.proto, with `counts` set (the rest 0), and `peer` when given.
    static func tableLines(_ counts: [WritableKeyPath<DeviceProofReport.Row, Int>: Int], peer: String? = nil) -> [String] {
        var report = DeviceProofReport()
        report.peer = peer
        var row = DeviceProofReport.Row(file: "a.proto")
        for (count, value) in counts { row[keyPath: count] = value }
        report.rows = [row]
        report.total.add(row)
        return report.table.split(separator: "\n").map(String.init)
    }

    @Test func eachCountIsRightAlignedUnderItsHeadingOneSpaceApart() {
        let lines = Self.tableLines([\.exemplars: 12, \.accepted: 10, \.refusedByOption: 2])
        #expect(lines.count == 4)
        let name = { (text: String) in text.padding(toLength: 36, withPad: " ", startingAt: 0) }
        #expect(lines[1].hasPrefix(name("file") + " exemplars accepted refused truncated filled at at ok past"))
        #expect(lines[1].hasSuffix(" mut.stock failed"))
        #expect(lines[2].hasPrefix(name("a.proto") + "        12       10       2         0      0  0     0    0"))
        #expect(lines[3].hasPrefix(name("total") + "        12       10       2"))
        #expect(lines[2].hasSuffix("         0      0"))
        #expect(Set(lines.dropFirst().map(\.count)).count == 1, "every row as wide as the header")
        #expect(!lines[1].contains("peer"))
    }

    @Test func thePeersFiveColumnsComeBeforeFailedWithAPeer() {
        let lines = Self.tableLines([\.exemplars: 12, \.peerExemplars: 12, \.peerSameBytes: 11, \.peerAccepted: 10,
                                     \.peerRefusedByOption: 2, \.peerTruncated: 3], peer: "SwiftProtobuf 1.38.1")
        #expect(lines[0].hasSuffix("; the peer: SwiftProtobuf 1.38.1's encodings of the exemplars"))
        #expect(lines[1].hasSuffix(" mut.stock peer exemplars peer same bytes peer accepted peer refused peer truncated failed"))
        // Each count right-aligned under its heading: 14, 15, 13, 12, 14 and 6 columns wide.
        #expect(lines[2].hasSuffix("             12              11            10            2              3      0"), "\(lines[2])")
        #expect(Set(lines.dropFirst().map(\.count)).count == 1, "every row as wide as the header")
    }
}
