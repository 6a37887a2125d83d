import Testing
@testable import ProtoSchema

@Suite struct DescriptorLoadingTests {
    @Test func decodesHandBuiltFileDescriptorSet() throws {
        // FileDescriptorSet { file { name: "a.proto" package: "p" syntax: "proto3"
        //   message_type { name: "M" field { name: "x" number: 1 label: LABEL_REPEATED type: TYPE_INT32 json_name: "x" } } } }
        let field: [UInt8] = [0x0a, 1, 0x78, 0x18, 1, 0x20, 3, 0x28, 5, 0x52, 1, 0x78]
        let message: [UInt8] = [0x0a, 1, 0x4d, 0x12, UInt8(field.count)] + field
        let file: [UInt8] = [0x0a, 7] + Array("a.proto".utf8) + [0x12, 1, 0x70]
            + [0x22, UInt8(message.count)] + message + [0x62, 6] + Array("proto3".utf8)
        let set = try SchemaSet(descriptorSet: [0x0a, UInt8(file.count)] + file)
        let m = try #require(set.message("p.M"))
        #expect(set.files.map(\.syntax) == [.proto3])
        #expect(m.fields.count == 1)
        let x = m.fields[0]
        #expect(x.type == .int32 && x.label == .repeated && x.isPacked && !x.hasPresence)
    }

    @Test func theSyntaxOfAFileIsReadFromEitherEditionFieldOrTheSyntaxString() throws {
        // FileDescriptorProto: name (1), then syntax (12, string), edition (13, string: older protoc)
        // or edition (14, enum: newer protoc). No field: proto2.
        func syntax(of extra: [UInt8]) throws -> Syntax? {
            let file: [UInt8] = [0x0a, 7] + Array("e.proto".utf8) + extra
            return try SchemaSet(descriptorSet: [0x0a, UInt8(file.count)] + file).files.first?.syntax
        }
        #expect(try syntax(of: []) == .proto2)
        #expect(try syntax(of: [0x62, 6] + Array("proto3".utf8)) == .proto3)
        #expect(try syntax(of: [0x62, 8] + Array("editions".utf8)) == .editions)
        #expect(try syntax(of: [0x6a, 4] + Array("2023".utf8)) == .editions)
        #expect(try syntax(of: [0x70, 0xe8, 0x07]) == .editions)
        // A varint in the string's field number, or a string in the enum's, is skipped, not misread.
        #expect(try syntax(of: [0x68, 0x01]) == .proto2)
    }

    @Test func unknownFieldsOfEveryWireTypeAreSkipped() throws {
        // A FileDescriptorProto with fields this reader does not know: varint, fixed64, bytes,
        // a group with a field inside, fixed32; then its name, which must still be read.
        let unknown: [UInt8] = [0xf8, 0x06, 0x01,  // 111: varint
                                0xf9, 0x06, 1, 2, 3, 4, 5, 6, 7, 8,  // 111: fixed64
                                0xfa, 0x06, 0x02, 0x61, 0x62,  // 111: bytes
                                0xfb, 0x06, 0x08, 0x01, 0xfc, 0x06,  // 111: group { 1: 1 }
                                0xfd, 0x06, 1, 2, 3, 4]  // 111: fixed32
        let file: [UInt8] = unknown + [0x0a, 7] + Array("u.proto".utf8)
        let set = try SchemaSet(descriptorSet: [0x0a, UInt8(file.count)] + file)
        #expect(set.files.map(\.name) == ["u.proto"])
        // A varint of eleven bytes is refused where it starts, not read on past 64 bits.
        let long: [UInt8] = [0x0a, 13, 0xf8, 0x06] + [UInt8](repeating: 0xff, count: 10) + [0x01]
        #expect(throws: SchemaError.malformed(reason: "varint longer than 10 bytes", offset: 4)) { try SchemaSet(descriptorSet: long) }
        // A fixed32 cut short is refused where it starts.
        let cut: [UInt8] = [0x0a, 4, 0xfd, 0x06, 1, 2]
        #expect(throws: SchemaError.self) { try SchemaSet(descriptorSet: cut) }
    }

    @Test func fieldNumberZeroIsRejectedWhereItsTagStarts() {
        // Tag 0x00 is field 0 with wire type varint: no valid message has it, at the top level or
        // inside a file.
        #expect(throws: SchemaError.malformed(reason: "bad field number", offset: 0)) {
            try SchemaSet(descriptorSet: [0x00, 0x01])
        }
        #expect(throws: SchemaError.malformed(reason: "bad field number", offset: 2)) {
            try SchemaSet(descriptorSet: [0x0a, 0x02, 0x00, 0x01])
        }
    }

    @Test func truncatedDescriptorSetIsRejectedWithOffset() {
        #expect(throws: SchemaError.malformed(reason: "length past end", offset: 1)) {
            try SchemaSet(descriptorSet: [0x0a, 0x05, 0x0a])
        }
    }

    @Test func unresolvedTypeNamesTheField() throws {
        // message M { Missing m = 1; } with type_name ".p.Missing"
        let field: [UInt8] = [0x0a, 1, 0x6d, 0x18, 1, 0x20, 1, 0x28, 11, 0x32, 10] + Array(".p.Missing".utf8)
        let message: [UInt8] = [0x0a, 1, 0x4d, 0x12, UInt8(field.count)] + field
        let file: [UInt8] = [0x0a, 7] + Array("a.proto".utf8) + [0x12, 1, 0x70] + [0x22, UInt8(message.count)] + message
        #expect(throws: SchemaError.unresolvedType(field: "p.M.m", typeName: "p.Missing")) {
            try SchemaSet(descriptorSet: [0x0a, UInt8(file.count)] + file)
        }
    }
}
