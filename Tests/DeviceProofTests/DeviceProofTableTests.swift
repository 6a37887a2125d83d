// The device table `wireproof prove` prints: file names padded to 36 columns, then each count
// right-aligned under its heading, one space between columns; the peer's columns only with a peer.

import Testing
@testable import DeviceProof

@Suite struct DeviceProofTableTests {
    @Test func eachCountIsRightAlignedUnderItsHeadingOneSpaceApart() {
        var report = DeviceProofReport()
        var row = DeviceProofReport.Row(file: "a.proto")
        row.exemplars = 12
        row.accepted = 10
        row.refusedByOption = 2
        report.rows = [row]
        report.total.add(row)
        let lines = report.table.split(separator: "\n").map(String.init)
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
        var report = DeviceProofReport()
        report.peer = "SwiftProtobuf 1.38.1"
        var row = DeviceProofReport.Row(file: "a.proto")
        row.exemplars = 12
        row.peerExemplars = 12
        row.peerSameBytes = 11
        row.peerAccepted = 10
        row.peerRefusedByOption = 2
        row.peerTruncated = 3
        report.rows = [row]
        report.total.add(row)
        let lines = report.table.split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix("; the peer: SwiftProtobuf 1.38.1's encodings of the exemplars"))
        #expect(lines[1].hasSuffix(" mut.stock peer exemplars peer same bytes peer accepted peer refused peer truncated failed"))
        // Each count right-aligned under its heading: 14, 15, 13, 12, 14 and 6 columns wide.
        #expect(lines[2].hasSuffix("             12              11            10            2              3      0"), "\(lines[2])")
        #expect(Set(lines.dropFirst().map(\.count)).count == 1, "every row as wide as the header")
    }
}
