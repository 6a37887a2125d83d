import Testing
import WireDiscovery

/// TXTRecord's wire form and reading rules (RFC 6763 section 6), without a daemon.
@Suite("TXT records")
struct TXTRecordTests {
    private func string(_ text: String) -> [UInt8] { [UInt8(text.utf8.count)] + Array(text.utf8) }

    @Test func theWireFormIsOneLengthPrefixedStringPerAttributeInKeyOrder() throws {
        let record = try TXTRecord(["txtvers": "1", "path": "/chat"])
        #expect(record.bytes == string("path=/chat") + string("txtvers=1"))
        var flag = TXTRecord()
        try flag.set("secure", nil)
        #expect(flag.bytes == string("secure"))
        #expect(TXTRecord().bytes == [0], "an empty record is one empty string")
    }

    @Test func readingSkipsEmptyAndKeylessStringsKeepsTheFirstOfARepeatedKeyAndDropsATruncatedTail() {
        let wire = [0] + string("=nokey") + string("Path=/a") + string("path=/b") + string("flag") + string("empty=") + [9, 0x61, 0x62]
        let record = TXTRecord(decoding: wire)
        #expect(record["path"] == "/a", "keys compare without case; the first wins")
        #expect(record["flag"] == "", "a key alone is present with no value")
        #expect(record.entries.first { $0.key == "flag" }?.value == nil)
        #expect(record["empty"] == "" && record.entries.first { $0.key == "empty" }?.value == [])
        #expect(record.entries.map(\.key) == ["Path", "flag", "empty"])
    }

    @Test func whatTheWireCannotCarryIsRefusedNamingTheKey() {
        #expect(throws: DiscoveryError.invalidArgument("TXT key \"\": 1 or more printable ASCII characters, no '='")) { try TXTRecord(["": "x"]) }
        #expect(throws: DiscoveryError.self) { try TXTRecord(["a=b": "x"]) }
        #expect(throws: DiscoveryError.self) { try TXTRecord(["schlüssel": "x"]) }
        #expect(throws: DiscoveryError.invalidArgument("TXT attribute \"k\": key, '=' and value take more than 255 bytes")) {
            try TXTRecord(["k": String(repeating: "v", count: 254)])
        }
        #expect((try? TXTRecord(["k": String(repeating: "v", count: 253)])) != nil, "255 bytes exactly fit")
    }

    @Test func settingAKeyAgainReplacesItInPlace() throws {
        var record = try TXTRecord(["a": "1", "b": "2"])
        try record.set("A", Array("3".utf8))
        #expect(record.entries.map(\.key) == ["A", "b"] && record["a"] == "3")
        #expect(TXTRecord(decoding: record.bytes) == record)
    }
}
