import DeviceProof
import FacadeProof
import Testing

/// When the device and the facades both accept an input and read it differently, the mutant check
/// explains the difference only where the device merges a repeated submessage as protobuf does and
/// the facades keep the last one (docs/deviations.md); any other difference, even one where the
/// device reads as protobuf, is a failure. On the hand-written layout, the facades stood in for by
/// a function that answers `facades` for the input and echoes anything else (the device's bytes).
@Suite struct DeviceMergeVerdictTests {
    typealias L = HandWrittenDeviceLayout

    static func judge(_ input: [UInt8], facades: [UInt8], device: [UInt8]) -> DeviceMutantVerdict {
        let facade = FacadeMessageType("dv.Dev", decodeReencode: { $0 == input ? facades : $0 })
        return DeviceMutantCheck.judge(input, schema: L.schema("Dev"), facade: facade, answer: .accepted(device),
                                       schemas: L.schemas, layout: L.layout)
    }

    @Test func aSubmessageSentTwiceThatTheDeviceMergesAsProtobufDoesIsExplained() {
        // id 1; sub { tag "a" }; sub { vals [1] }: protobuf and the device merge, the facades replace.
        let input: [UInt8] = [0x08, 0x01, 0x22, 0x03, 0x0A, 0x01, 0x61, 0x22, 0x03, 0x12, 0x01, 0x01]
        let replaced: [UInt8] = [0x08, 0x01, 0x22, 0x03, 0x12, 0x01, 0x01]
        let merged: [UInt8] = [0x08, 0x01, 0x22, 0x06, 0x0A, 0x01, 0x61, 0x12, 0x01, 0x01]
        #expect(Self.judge(input, facades: replaced, device: merged) == .deviceMergesWhereFacadesReplace)
    }

    @Test func aScalarTheyReadDifferentlyIsAFailureEvenWhereTheDeviceReadsAsProtobuf() {
        // id 1, then id 2: protobuf and the device keep 2; facades that kept 1 are wrong.
        let verdict = Self.judge([0x08, 0x01, 0x08, 0x02], facades: [0x08, 0x01], device: [0x08, 0x02])
        guard case .failure(let why) = verdict else { Issue.record("\(verdict)"); return }
        #expect(why.hasPrefix("both accept it and mean different things: "), "\(why)")
    }
}
