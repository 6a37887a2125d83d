// The codec table `make bench` prints per packet: every row lines up under its header, with
// instruction counts right-aligned in their column and "n/a" where callgrind gave none.

import Testing
@testable import BenchReport

@Suite struct CodecTableLayoutTests {
    @Test func everyOperationRowIsAsWideAsTheHeaderWithOrWithoutInstructionCounts() throws {
        let timing = ["median_ns": 1234.5, "p25_ns": 1000.0, "p75_ns": 1500.25]
        let packet = PacketTimings(packet: "chat", bytes: 356, operations: [
            "facade_encode": timing, "oracle_encode": timing, "facade_decode": timing, "oracle_decode": timing])
        var lines: [String] = []
        CodecReport.printPacket(packet, ["facade_encode": 18_804, "oracle_encode": 0, "facade_decode": 123_456_789],
                                print: { lines.append($0) })
        let header = try #require(lines.first { $0.contains("instructions/op") })
        let rows = lines.filter { line in ["facade_encode", "oracle_encode", "facade_decode", "oracle_decode"].contains { line.contains($0) } }
        #expect(rows.count == 4)
        for row in rows { #expect(row.count == header.count, "\(row)") }
        #expect(rows[0].hasSuffix(" 18,804") && rows[1].hasSuffix(" n/a") && rows[2].hasSuffix(" 123,456,789") && rows[3].hasSuffix(" n/a"))
    }
}
