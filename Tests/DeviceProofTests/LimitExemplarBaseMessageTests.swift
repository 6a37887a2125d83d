@testable import DeviceProof
import ProtoOracle
import Testing

/// The message every limit exemplar starts from is the smallest valid one: its required fields
/// only, submessages minimal in turn down to depth 8. A message whose required fields alone break
/// a limit gets no limit exemplars, nor does a map field with a count limit; both are named.
@Suite struct LimitExemplarBaseMessageTests {
    typealias L = HandWrittenDeviceLayout

    static func minimal(_ name: String, depth: Int = 0) -> [UInt8] {
        LimitExemplars.minimal(L.schema(name), schemas: L.schemas, layout: L.layout, depth: depth).serializedBytes()
    }

    @Test func theBaseHoldsEachRequiredFieldMinimallyDownToDepth8() {
        #expect(Self.minimal("Dev") == [0x08, 0x01])
        #expect(Self.minimal("Holder") == [0x0A, 0x02, 0x08, 0x01])
        #expect(Self.minimal("Holder", depth: 6) == [0x0A, 0x02, 0x08, 0x01])
        #expect(Self.minimal("Holder", depth: 7) == [0x0A, 0x00])
        #expect(Self.minimal("Holder", depth: 8) == [])
        #expect(Self.minimal("Lossy") == [0x0A, 0x01, 0x01, 0x18, 0x01])
        #expect(Self.minimal("Sub") == [])
    }

    @Test func messagesAndMapFieldsWithoutLimitExemplarsAreNamed() {
        let all = LimitExemplars.all(layout: L.layout, schemas: L.schemas)
        #expect(all.skipped == ["dv.Tight: its required fields alone exceed a device limit", "dv.Counted.counts: a map field"])
        #expect(!all.exemplars.contains { $0.messageType == "dv.Tight" || $0.messageType == "dv.Counted" })
        // Every exemplar of Dev's limits starts from the base: its required id = 1 comes first.
        let dev = all.exemplars.filter { $0.messageType == "dv.Dev" }
        #expect(!dev.isEmpty && dev.allSatisfy { $0.message.serializedBytes().starts(with: [0x08, 0x01]) })
    }
}
