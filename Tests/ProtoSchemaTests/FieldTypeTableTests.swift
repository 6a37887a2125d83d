// The model's enums against descriptor.proto's numbering and the wire format: one table each, so a
// changed number, wire type or spelling fails here by name.

import Testing
import ProtoSchema

@Suite struct FieldTypeTableTests {
    @Test func everyFieldTypeHasItsDescriptorNumberWireTypeAndSpelling() {
        let table: [(FieldType, Int, WireType, Bool, String)] = [
            (.double, 1, .fixed64, true, "double"), (.float, 2, .fixed32, true, "float"), (.int64, 3, .varint, true, "int64"),
            (.uint64, 4, .varint, true, "uint64"), (.int32, 5, .varint, true, "int32"), (.fixed64, 6, .fixed64, true, "fixed64"),
            (.fixed32, 7, .fixed32, true, "fixed32"), (.bool, 8, .varint, true, "bool"), (.string, 9, .lengthDelimited, false, "string"),
            (.group, 10, .startGroup, false, "group"), (.message, 11, .lengthDelimited, false, "message"),
            (.bytes, 12, .lengthDelimited, false, "bytes"), (.uint32, 13, .varint, true, "uint32"), (.enum, 14, .varint, true, "enum"),
            (.sfixed32, 15, .fixed32, true, "sfixed32"), (.sfixed64, 16, .fixed64, true, "sfixed64"), (.sint32, 17, .varint, true, "sint32"),
            (.sint64, 18, .varint, true, "sint64"),
        ]
        #expect(FieldType.allCases == table.map(\.0))
        for (type, number, wireType, packable, spelling) in table {
            #expect(type.rawValue == number && type.wireType == wireType && type.isPackable == packable && type.protoName == spelling,
                    "\(type)")
        }
    }

    @Test func labelsAndWireTypesKeepTheirWireNumbers() {
        #expect([FieldLabel.optional, .required, .repeated].map(\.rawValue) == [1, 2, 3])
        #expect([WireType.varint, .fixed64, .lengthDelimited, .startGroup, .endGroup, .fixed32].map(\.rawValue) == [0, 1, 2, 3, 4, 5])
    }
}

@Suite struct ExtensionFieldTests {
    @Test func aFieldIsAnExtensionExactlyWhenItNamesAnExtendee() throws {
        func field(_ extendee: String?) -> FieldSchema {
            FieldSchema(name: "x", number: 1, label: .optional, type: .int32, typeName: nil, oneofIndex: nil, isProto3Optional: false,
                        packedOption: nil, isPacked: false, defaultValue: nil, jsonName: "x", hasPresence: true, extendee: extendee, scope: "p")
        }
        #expect(field("p.M").isExtension)
        #expect(!field(nil).isExtension)
    }

    @Test func anExtensionOfAnUnknownMessageNamesTheExtensionAndTheExtendee() {
        // file { name: "x.proto" package: "p" message_type { name: "M" }
        //   extension { name: "x" number: 1 type: TYPE_MESSAGE type_name: ".p.M" extendee: ".p.Missing" } }
        let ext: [UInt8] = [0x0a, 1, 0x78, 0x18, 1, 0x28, 11, 0x32, 4] + Array(".p.M".utf8) + [0x12, 10] + Array(".p.Missing".utf8)
        let file: [UInt8] = [0x0a, 7] + Array("x.proto".utf8) + [0x12, 1, 0x70, 0x22, 3, 0x0a, 1, 0x4d, 0x3a, UInt8(ext.count)] + ext
        #expect(throws: SchemaError.unresolvedType(field: "p.x", typeName: "p.Missing")) {
            try SchemaSet(descriptorSet: [0x0a, UInt8(file.count)] + file)
        }
    }

    @Test func aScalarExtensionOfAnUnknownMessageNamesTheExtensionAndTheExtendee() {
        // file { name: "x.proto" package: "p"
        //   extension { name: "x" number: 1 type: TYPE_INT32 extendee: ".p.Missing" } }: no type name to check.
        let ext: [UInt8] = [0x0a, 1, 0x78, 0x18, 1, 0x28, 5, 0x12, 10] + Array(".p.Missing".utf8)
        let file: [UInt8] = [0x0a, 7] + Array("x.proto".utf8) + [0x12, 1, 0x70, 0x3a, UInt8(ext.count)] + ext
        #expect(throws: SchemaError.unresolvedType(field: "p.x", typeName: "p.Missing")) {
            try SchemaSet(descriptorSet: [0x0a, UInt8(file.count)] + file)
        }
    }
}
