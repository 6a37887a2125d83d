import Testing
@testable import WireTransport

/// ALPN's wire format: each protocol name as its length byte and its bytes, in the order given;
/// a name of 1 to 255 bytes is accepted, anything else is refused naming it.
@Suite struct ALPNWireFormatTests {
    @Test func eachNameIsItsLengthByteAndItsBytesInOrder() throws {
        #expect(try TLSContext.alpnWireFormat(["h2", "x"]) == [2, 0x68, 0x32, 1, 0x78])
        #expect(try TLSContext.alpnWireFormat([]) == [])
    }

    @Test func namesOfOneAnd255BytesAreTheLimitsAccepted() throws {
        let longest = String(repeating: "a", count: 255)
        #expect(try TLSContext.alpnWireFormat([longest]) == [255] + Array(longest.utf8))
        #expect(try TLSContext.alpnWireFormat(["a"]) == [1, 0x61])
    }

    @Test func anEmptyNameOrOneOf256BytesIsRefusedNamingIt() {
        let tooLong = String(repeating: "b", count: 256)
        #expect(throws: WireError.invalidArgument("ALPN protocol \"\(tooLong)\" must be 1 to 255 bytes")) {
            try TLSContext.alpnWireFormat(["h2", tooLong])
        }
        #expect(throws: WireError.invalidArgument("ALPN protocol \"\" must be 1 to 255 bytes")) {
            try TLSContext.alpnWireFormat([""])
        }
    }
}
