// How `protogen plan` names a skipped extension, including one whose extendee is unknown.

import ProtoSchema
import Testing
@testable import ProtoGenKit

@Suite struct ExtensionLabelTests {
    static func field(extendee: String?) -> FieldSchema {
        FieldSchema(name: "x", number: 5, label: .optional, type: .int32, typeName: nil, oneofIndex: nil, isProto3Optional: false,
                    packedOption: nil, isPacked: false, defaultValue: nil, jsonName: "x", hasPresence: true, extendee: extendee,
                    scope: "p")
    }

    @Test func aSkippedExtensionNamesItsScopeNumberAndExtendeeOrAQuestionMark() {
        #expect(FacadePlan.extensionLabel((file: "f.proto", field: Self.field(extendee: "p.M"))) == "f.proto: extension p.x (field 5 of p.M)")
        #expect(FacadePlan.extensionLabel((file: "f.proto", field: Self.field(extendee: nil))) == "f.proto: extension p.x (field 5 of ?)")
    }
}
