// The descriptor reader on hand-built input: the limits of a tag, each wire type's failure with its
// offset, and the model's fallbacks for values a descriptor may leave out or spell unusually.

import Foundation
import Testing
@testable import ProtoSchema
import TestSupport

private typealias W = HandBuiltWire

@Suite struct DescriptorReaderBoundaryTests {
    static func load(_ file: [UInt8]) throws(SchemaError) -> SchemaSet { try SchemaSet(descriptorSet: W.len(1, file)) }

    @Test func theLargestFieldNumberIsSkippedAndTheNextOneRefused() throws {
        let largest = W.int(0x1fff_ffff, 1) + W.text(1, "n.proto")
        #expect(try Self.load(largest).files.map(\.name) == ["n.proto"])
        #expect(throws: SchemaError.malformed(reason: "bad field number", offset: 2)) { try Self.load(W.int(0x2000_0000, 1)) }
    }

    @Test func wireTypesFourToSevenAreRefusedWhereTheValueStarts() {
        // A field of the file with each wire type no field may have; the value would start at byte 3.
        for wireType: UInt8 in [4, 6, 7] {
            #expect(throws: SchemaError.malformed(reason: "bad wire type \(wireType)", offset: 3)) {
                try Self.load(W.tag(15, wireType) + [0])
            }
        }
    }

    @Test func fixedWidthValuesEndingExactlyAtTheEndAreReadAndShortOnesRefused() throws {
        let fixed64 = W.text(1, "f.proto") + W.tag(111, 1) + [1, 2, 3, 4, 5, 6, 7, 8]
        #expect(try Self.load(fixed64).files.map(\.name) == ["f.proto"])
        let fixed32 = W.text(1, "f.proto") + W.tag(111, 5) + [1, 2, 3, 4]
        #expect(try Self.load(fixed32).files.map(\.name) == ["f.proto"])
        // set(2) + tag(2): the value starts at byte 4.
        #expect(throws: SchemaError.malformed(reason: "truncated fixed-width value", offset: 4)) {
            try Self.load(W.tag(111, 5) + [1, 2, 3])
        }
        #expect(throws: SchemaError.malformed(reason: "truncated fixed-width value", offset: 4)) {
            try Self.load(W.tag(111, 1) + [1, 2, 3, 4, 5, 6, 7])
        }
    }

    @Test func aVarintCutShortAndAStringThatIsNotUTF8AreRefusedWhereTheyStart() {
        // The varint starts at byte 3 and is cut after its first byte.
        #expect(throws: SchemaError.malformed(reason: "truncated varint", offset: 3)) { try Self.load(W.tag(1, 0) + [0x80]) }
        #expect(throws: SchemaError.malformed(reason: "invalid UTF-8 in string", offset: 3)) { try Self.load(W.len(1, [0xff])) }
    }

    @Test func fieldsOfTheSetOtherThanFilesAreSkipped() throws {
        let set = W.int(2, 5) + W.len(1, W.text(1, "a.proto")) + W.text(3, "x") + W.len(1, W.text(1, "b.proto"))
        #expect(try SchemaSet(descriptorSet: set).files.map(\.name) == ["a.proto", "b.proto"])
    }

    @Test func aFieldWithoutTypeOrJsonNameAndWithUnknownLabelOrTypeTakesTheDefaults() throws {
        // No type, label 0, no json_name; then label 4, type 19 (neither exists) and a json_name
        // that is not the name's lower camel case.
        let bare = W.text(1, "a_bc_d") + W.int(3, 1) + W.int(4, 0)
        let odd = W.text(1, "x_y") + W.int(3, 2) + W.int(4, 4) + W.int(5, 19) + W.text(10, "custom")
        let file = W.text(1, "d.proto") + W.len(4, W.text(1, "M") + W.len(2, bare) + W.len(2, odd))
        let fields = try #require(try Self.load(file).message("M")).fields
        #expect(fields.map(\.type) == [.int32, .int32])
        #expect(fields.map(\.label) == [.optional, .optional])
        #expect(fields.map(\.jsonName) == ["aBcD", "custom"])
    }

    @Test func publicDependenciesArePackedOrNotAndOutOfRangeIndicesDropped() throws {
        let file = W.text(1, "p.proto") + W.text(3, "a.proto") + W.text(3, "b.proto")
            + W.int(10, 1) + W.len(10, W.varint(5) + W.varint(0) + W.varint(UInt64(bitPattern: -1)))
        let schema = try #require(try Self.load(file).file("p.proto"))
        #expect(schema.dependencies == ["a.proto", "b.proto"])
        #expect(schema.publicDependencies == ["b.proto", "a.proto"])
    }

    @Test func anEmptyExtensionRangeIsDroppedAndTheEndIsExclusive() throws {
        let ranges = W.len(5, W.int(1, 5) + W.int(2, 5)) + W.len(5, W.int(1, 7) + W.int(2, 9) + W.int(3, 1))
        let file = W.text(1, "r.proto") + W.len(4, W.text(1, "M") + ranges)
        #expect(try Self.load(file).message("M")?.extensionRanges == [7...8])
    }

    @Test func theSwiftPrefixIsTheOnlyFileOptionRead() throws {
        let options = W.text(1, "java.pkg") + W.text(39, "XY") + W.int(9, 1)
        let file = W.text(1, "o.proto") + W.len(8, options)
        #expect(try Self.load(file).file("o.proto")?.swiftPrefix == "XY")
        #expect(try Self.load(W.text(1, "o.proto") + W.len(8, W.int(39, 1))).file("o.proto")?.swiftPrefix == nil)
    }
}

@Suite struct DescriptorSetFileTests {
    @Test func aSetLargerThanOneReadIsReadWholeAndAMissingFileIsNamedWithItsErrno() throws {
        let folder = try TemporaryFolder("descriptor-file")
        // 70,001 bytes: more than one 64 KiB read, and odd.
        let name = String(repeating: "n", count: 69_987) + ".proto"
        let bytes = W.len(1, W.text(1, name))
        #expect(bytes.count == 70_001)
        let path = folder.path + "/set.pb"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(try SchemaSet(contentsOf: path).files.map(\.name) == [name])
        #expect(throws: SchemaError.unreadable(path: folder.path + "/absent.pb", errno: ENOENT)) {
            try SchemaSet(contentsOf: folder.path + "/absent.pb")
        }
    }
}
