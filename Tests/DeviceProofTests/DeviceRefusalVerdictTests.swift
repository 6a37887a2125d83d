import DeviceProof
import FacadeProof
import Testing

/// The mutant check's verdicts when the device refuses an input the facades accept, on the
/// hand-written layout (dv.Dev.name: max_length = 4) with the facades stood in for by a function.
@Suite struct DeviceRefusalVerdictTests {
    typealias L = HandWrittenDeviceLayout
    static let accepting = FacadeMessageType("dv.Dev", decodeReencode: { $0 })

    static func judge(_ input: [UInt8], refused message: String, facade: FacadeMessageType = accepting) -> DeviceMutantVerdict {
        DeviceMutantCheck.judge(input, schema: L.schema("Dev"), facade: facade, answer: .refused(message), schemas: L.schemas, layout: L.layout)
    }

    /// id 1, then `name` once per string given.
    static func dev(names: [String]) -> [UInt8] {
        [0x08, 0x01] + names.flatMap { [0x12, UInt8($0.utf8.count)] + Array($0.utf8) }
    }

    @Test func aFacadeReadingThatCannotBeReadBackIsAFailure() {
        let garbling = FacadeMessageType("dv.Dev", decodeReencode: { _ in [0xFF] })
        #expect(Self.judge(Self.dev(names: []), refused: "bogus", facade: garbling)
            == .failure("the device refuses it ('bogus'); the facades accept it, and their reading cannot be read back"))
    }

    @Test func aLimitBrokenOnlyByAnOccurrenceALaterOneReplacesExplainsTheRefusal() {
        #expect(Self.judge(Self.dev(names: ["abcdefg", "ab"]), refused: "string overflow")
            == .explainedByOption("refused by option: name: 7 bytes past max_length = 4, in an occurrence a later one replaces (device: string overflow)"))
    }

    @Test func aGroupStockNanopbReadsOtherwiseIsNotCompared() {
        // An unknown group (field 15) after the id.
        #expect(Self.judge([0x08, 0x01, 0x7B, 0x7C], refused: "bogus") == .readDifferentlyByStockNanopb)
    }

    @Test func aRefusalNoLimitExplainsIsAFailureNamingThePastLimits() {
        #expect(Self.judge(Self.dev(names: ["abcdefg"]), refused: "bogus")
            == .failure("the device refuses it ('bogus') and no option explains it; the facades accept it (past limits: name: 7 bytes past max_length = 4)"))
        #expect(Self.judge(Self.dev(names: ["ab"]), refused: "bogus")
            == .failure("the device refuses it ('bogus') and no option explains it; the facades accept it"))
    }
}
