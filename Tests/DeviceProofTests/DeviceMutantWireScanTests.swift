@testable import DeviceProof
import ProtoOracle
import ProtoSchema
import Testing

/// The wire scans `DeviceMutantCheck` explains a device/facades difference with: splitting an
/// input into its top-level fields, spotting what stock nanopb reads otherwise than the facades'
/// patched one, the limits each occurrence breaks on its own, and the input without the fields the
/// device drops. Every scan is bounded (a varint by 10 bytes, recursion by depth 32) and answers
/// nil or false where the input stops being well-formed.
@Suite struct DeviceMutantWireScanTests {
    typealias L = HandWrittenDeviceLayout
    static let a = UInt8(ascii: "a"), z = UInt8(ascii: "z")

    static func fields(_ input: [UInt8]) -> [String]? {
        DeviceMutantCheck.fields(of: input)?.map { "\($0.number) \($0.wireType) \($0.whole) \($0.payload)" }
    }

    @Test func fieldsSplitsEveryWireTypeIntoTheWholeFieldAndItsPayload() {
        let input: [UInt8] = [0x08, 0x96, 0x01, 0x12, 0x02, 0x61, 0x62, 0x1D, 1, 2, 3, 4, 0x21, 1, 2, 3, 4, 5, 6, 7, 8]
        #expect(Self.fields(input) == ["1 0 0..<3 1..<3", "2 2 3..<7 5..<7", "3 5 7..<12 8..<12", "4 1 12..<21 13..<21"])
        #expect(Self.fields([]) == [])
    }

    @Test func fieldsRefusesMalformedInputAndVarintsOverTenBytes() {
        #expect(Self.fields([0x08, 0x80]) == nil)  // a varint cut short
        #expect(Self.fields([0x12, 0x05, 0x61]) == nil)  // a length past the end
        #expect(Self.fields([0x1D, 1, 2]) == nil)  // a fixed32 cut short
        #expect(Self.fields([0x0B]) == nil)  // a group
        let ten = [0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x01]
        #expect(Self.fields(ten) == ["1 0 0..<11 1..<11"])
        #expect(Self.fields([0x08] + [UInt8](repeating: 0xFF, count: 10) + [0x01]) == nil)
    }

    @Test func stockNanopbReadsLongTagsWideTagsGroupsAndLongVarintsOtherwise() {
        func differs(_ input: [UInt8]) -> Bool {
            DeviceMutantCheck.readsDifferentlyFromStockNanopb(input, schema: L.schema("Dev"), schemas: L.schemas)
        }
        #expect(!differs([0x08, 0x01, 0x12, 0x01, 0x61]))
        #expect(differs([0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01]))  // field 1's tag in 6 bytes
        #expect(differs([0x80, 0x80, 0x80, 0x80, 0x10, 0x01]))  // tag 2^32
        #expect(!differs([0xF8, 0xFF, 0xFF, 0xFF, 0x0F, 0x01]))  // tag 2^32 - 8: 32 bits, 5 bytes
        #expect(differs([0x08] + [UInt8](repeating: 0x80, count: 10) + [0x00]))  // an 11-byte varint
        #expect(!differs([0x08] + [UInt8](repeating: 0x80, count: 9) + [0x01]))  // a 10-byte one
        #expect(!differs([0x08, 0x80]))  // cut short: not well-formed, so not judged
        #expect(differs([0x0B, 0x0C]) && differs([0x0C]))
        #expect(differs([0x09, 1, 2, 3, 4, 5, 6, 7, 8, 0x0B]) && differs([0x0D, 1, 2, 3, 4, 0x0B]))
        #expect(!differs([0x0E, 0x0B]))  // wire type 6 ends the scan
        // Inside a submessage field the schema reaches, not inside a string.
        let longTag: [UInt8] = [0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01]
        #expect(differs([0x22, 0x07] + longTag))
        #expect(!differs([0x12, 0x07] + longTag))
        #expect(!differs([0x22, 0x08] + longTag))  // the length runs past the end
    }

    @Test func eachOccurrenceOfAFieldIsCheckedAgainstItsLimitOnItsOwn() {
        func violations(_ input: [UInt8], depth: Int = 0) -> [String] {
            DeviceMutantCheck.occurrenceViolations(input, schema: L.schema("Dev"), schemas: L.schemas, layout: L.layout, depth: depth)
                .map(\.description)
        }
        let longName: [UInt8] = [0x12, 0x06] + Array("abcdef".utf8)
        #expect(violations(longName + [0x12, 0x02, 0x61, 0x62]) == ["name: 6 bytes past max_length = 4"])
        #expect(violations([0x12, 0x02, 0x61, 0x62]) == [])
        // Inside a submessage, where a later tag replaces the long one in the value as a whole.
        #expect(violations([0x22, 0x08, 0x0A, 0x03, 0x78, 0x79, 0x7A, 0x0A, 0x01, 0x61]) == ["sub.tag: 3 bytes past max_size = 3"])
        // The submessage's one occurrence breaks it as a whole and field by field: reported once.
        #expect(violations([0x22, 0x05, 0x0A, 0x03, 0x78, 0x79, 0x7A]) == ["sub.tag: 3 bytes past max_size = 3"])
        // An empty packed block counts against a fixed_count, not against a max_count or a string.
        #expect(violations([0x2A, 0x00]) == ["fixed: 0 elements (an empty packed block) past fixed_count (max_count = 2)"])
        #expect(violations([0x2A, 0x02, 0x01, 0x02]) == [])
        #expect(violations([0x22, 0x02, 0x12, 0x00]) == [])
        #expect(violations([0x12, 0x00]) == [])
        // Malformed input, and the depth bound.
        #expect(violations(longName + [0x12]) == [])
        #expect(violations(longName, depth: 31) == ["name: 6 bytes past max_length = 4"])
        #expect(violations(longName, depth: 32) == [])
        // A submessage is one level deeper than its parent, no more: reached from depth 30, not from 31.
        let longSubTag: [UInt8] = [0x22, 0x08, 0x0A, 0x03, 0x78, 0x79, 0x7A, 0x0A, 0x01, 0x61]
        #expect(violations(longSubTag, depth: 30) == ["sub.tag: 3 bytes past max_size = 3"])
        #expect(violations(longSubTag, depth: 31) == [])
    }

    @Test func droppedFieldsAreCutAtEveryLevelWithLengthsRewritten() {
        func stripped(_ name: String, _ input: [UInt8], depth: Int = 0) -> [UInt8]? {
            DeviceMutantCheck.withoutDroppedFields(input, schema: L.schema(name), schemas: L.schemas, layout: L.layout, depth: depth)
        }
        let note: [UInt8] = [0x1A, 0x02, Self.z, Self.z], gone: [UInt8] = [0x30, 0x05]
        #expect(stripped("Dev", [0x08, 0x01] + note + gone + [0x12, 0x02, 0x61, 0x62]) == [0x08, 0x01, 0x12, 0x02, 0x61, 0x62])
        #expect(stripped("Holder", [0x0A, 0x06, 0x08, 0x01] + note) == [0x0A, 0x02, 0x08, 0x01])
        // A two-byte tag and a two-byte length survive the rewrite.
        #expect(stripped("Holder", [0xA2, 0x01, 0x04] + note) == [0xA2, 0x01, 0x00])
        let body: [UInt8] = [0x08, 0x01, 0x12, 0x82, 0x01] + [UInt8](repeating: Self.a, count: 130)
        #expect(stripped("Holder", [0x0A, 0x8B, 0x01] + body + note) == [0x0A, 0x87, 0x01] + body)
        // The rewritten length at the one-byte varint's edge: 127 bytes in one byte, 128 in two.
        for (size, length) in [(127, [0x7F]), (128, [0x80, 0x01])] as [(Int, [UInt8])] {
            let edge: [UInt8] = [0x08, 0x01, 0x12, UInt8(size - 4)] + [UInt8](repeating: Self.a, count: size - 4)
            let sent = edge.count + note.count
            #expect(stripped("Holder", [0x0A, UInt8(sent & 0x7F) | 0x80, UInt8(sent >> 7)] + edge + note) == [0x0A] + length + edge, "\(size)")
        }
        #expect(stripped("Dev", [0x08, 0x80]) == nil)
        #expect(stripped("Dev", note, depth: 31) == [])
        #expect(stripped("Dev", note, depth: 32) == nil)
    }

    @Test func requiredFieldsTheDeviceKeepsNothingOfAreNamed() {
        #expect(DeviceMutantCheck.droppedNumbers("dv.Dev", layout: L.layout) == [3, 6])
        #expect(DeviceMutantCheck.droppedRequired(L.schema("Lossy"), layout: L.layout) == ["blob", "y"])
        #expect(DeviceMutantCheck.droppedRequired(L.schema("Dev"), layout: L.layout) == [])
        #expect(DeviceMutantCheck.droppedNumbers("dv.Unknown", layout: L.layout) == [])
    }
}
