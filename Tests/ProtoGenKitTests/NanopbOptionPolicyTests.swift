// Every decision the plan takes on a nanopb option, with its exact reason: an option 0.4.7 cannot
// read, an option without effect on FT_POINTER fields, the options the facades can honour (int_size
// on an integer whose default fits, FT_IGNORE on a field or a oneof, anonymous_oneof) and the rest,
// in both modes; and the Swift type an int_size gives each integer type.

import ProtoSchema
import Testing
@testable import ProtoGenKit

@Suite struct NanopbOptionPolicyTests {
    static let layoutReason = "changes the C layout; the facades are generated for nanopb's default layout "
        + "(set NANOPB_OPTIONS_MODE=honour / --honour-options to apply it)"
    static let unsupported = "changes the generated C; not supported by the facades"

    let fields: [String: FieldSchema]
    init() throws {
        let set = try compileSchema(["p.proto": """
            syntax = "proto2"; package p;
            message M {
              optional uint32 small = 1; optional string text = 2; optional int32 low = 3 [default = -128];
              optional int32 under = 4 [default = -129]; optional uint32 top = 5 [default = 255]; optional uint32 over = 6 [default = 256];
            }
            """])
        fields = Dictionary(uniqueKeysWithValues: try #require(set.message("p.M")).fields.map { ($0.name, $0) })
    }

    func decide(_ kind: NanopbOptionElementKind, _ option: String, _ value: String, field: String? = nil, unread: String? = nil,
                _ mode: NanopbOptionsMode) -> NanopbOptionDecision {
        let setting = NanopbOptionSetting(file: "p.proto", element: "p.M", kind: kind, option: option, value: value, source: "p.options", unread: unread)
        return NanopbOptionPolicy.decide(setting, field: field.flatMap { fields[$0] }, mode: mode)
    }

    @Test func anOptionNanopbCannotReadIsSkippedOrRefusedWithItsReason() {
        #expect(decide(.field, "sort_fields", "true", unread: "no such option", .skip) == .skipped(reason: "not read: no such option"))
        #expect(decide(.field, "sort_fields", "true", unread: "no such option", .honour) == .refused(reason: "cannot be honoured: no such option"))
    }

    @Test func optionsWithoutEffectAreSkippedInBothModes() {
        for mode in [NanopbOptionsMode.skip, .honour] {
            for option in ["max_size", "max_length", "max_count"] {
                #expect(decide(.field, option, "4", field: "text", mode) == .skipped(reason: "no effect: sizes static storage only; fields are FT_POINTER"))
            }
            #expect(decide(.message, "msgid", "7", mode) == .skipped(reason: "no effect: adds a C #define the facades do not use"))
            #expect(decide(.enumType, "enum_to_string", "true", mode) == .skipped(reason: "no effect: adds C functions the facades do not use"))
            #expect(decide(.field, "type", "FT_POINTER", field: "small", mode) == .skipped(reason: "no effect: every field is FT_POINTER already"))
        }
    }

    @Test func whatTheFacadesCanMatchIsHonouredOnRequestAndOtherwiseSkippedAsALayoutChange() {
        let honourable: [(NanopbOptionElementKind, String, String, String?)] = [
            (.field, "int_size", "IS_8", "small"), (.field, "type", "FT_IGNORE", "text"),
            (.oneof, "type", "FT_IGNORE", nil), (.oneof, "anonymous_oneof", "true", nil),
        ]
        for (kind, option, value, field) in honourable {
            #expect(decide(kind, option, value, field: field, .honour) == .honoured, "\(option)")
            #expect(decide(kind, option, value, field: field, .skip) == .skipped(reason: Self.layoutReason), "\(option)")
        }
    }

    @Test func whatTheFacadesCannotMatchIsRefusedWithWhyAndSkippedAsUnsupported() {
        let refused: [(NanopbOptionElementKind, String, String, String?, String)] = [
            (.field, "int_size", "IS_8", "text", "int_size applies to int32/int64/uint32/uint64/sint32/sint64 fields only"),
            (.field, "int_size", "IS_8", nil, "int_size applies to int32/int64/uint32/uint64/sint32/sint64 fields only"),
            (.field, "type", "FT_STATIC", "small", "FT_STATIC is not supported: the Swift runtime needs every field FT_POINTER (FT_IGNORE is honoured)"),
            (.oneof, "type", "FT_CALLBACK", nil, "FT_CALLBACK is not supported: the Swift runtime needs every field FT_POINTER (FT_IGNORE is honoured)"),
            (.message, "packed_struct", "true", nil, "packed_struct is not supported by the facades (honoured: int_size, anonymous_oneof, type:FT_IGNORE)"),
            (.field, "anonymous_oneof", "true", "small", "anonymous_oneof is not supported by the facades (honoured: int_size, anonymous_oneof, type:FT_IGNORE)"),
        ]
        for (kind, option, value, field, why) in refused {
            #expect(decide(kind, option, value, field: field, .honour) == .refused(reason: why), "\(option)=\(value)")
            #expect(decide(kind, option, value, field: field, .skip) == .skipped(reason: Self.unsupported), "\(option)=\(value)")
        }
    }

    @Test func anIntSizeIsHonouredOnlyWhenTheFieldsDefaultFitsTheNarrowerType() {
        #expect(decide(.field, "int_size", "IS_8", field: "low", .honour) == .honoured, "-128 fits Int8")
        #expect(decide(.field, "int_size", "IS_8", field: "under", .honour) == .refused(reason: "the field's [default = -129] does not fit IS_8"))
        #expect(decide(.field, "int_size", "IS_8", field: "top", .honour) == .honoured, "255 fits UInt8")
        #expect(decide(.field, "int_size", "IS_8", field: "over", .honour) == .refused(reason: "the field's [default = 256] does not fit IS_8"))
        #expect(decide(.field, "int_size", "IS_16", field: "over", .honour) == .honoured)
    }

    @Test func intSizeGivesEachIntegerTypeItsSwiftTypeOfThatWidth() {
        #expect(NanopbOptionPolicy.intSizeType(.int32, "IS_64") == "Int64")
        #expect(NanopbOptionPolicy.intSizeType(.sint64, "IS_16") == "Int16")
        #expect(NanopbOptionPolicy.intSizeType(.int64, "IS_8") == "Int8")
        #expect(NanopbOptionPolicy.intSizeType(.sint32, "IS_32") == "Int32")
        #expect(NanopbOptionPolicy.intSizeType(.uint64, "IS_32") == "UInt32")
        #expect(NanopbOptionPolicy.intSizeType(.uint32, "IS_8") == "UInt8")
        #expect(NanopbOptionPolicy.intSizeType(.bool, "IS_8") == nil)
        #expect(NanopbOptionPolicy.intSizeType(.fixed32, "IS_8") == nil)
        #expect(NanopbOptionPolicy.intSizeType(.uint32, "IS_DEFAULT") == nil)
    }
}
