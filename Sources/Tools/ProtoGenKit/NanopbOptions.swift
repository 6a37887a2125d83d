// nanopb options the schema's own sources set (`.options` files, `(nanopb)` annotations through
// `import "nanopb.proto"`), and what the plan does with each: skip it (the default), honour it,
// or refuse generation. Rule: what passes generation compiles, so an option is honoured only
// when the facades generate code matching the C it produces.
//
// scripts/proto-options.py resolves the options with nanopb's own code (same pattern matching
// and inheritance file -> message -> field/oneof as its generator) and lists every element
// whose effective options differ from the default (`type:FT_POINTER`); this file decides.

import Foundation
import ProtoSchema

/// One nanopb option in effect on one schema element, as the schema's sources set it.
/// The kinds of schema element a nanopb option is set on, spelled as scripts/proto-options.py
/// reports them. `pattern`: an options-file line nanopb cannot read, reported once by its pattern
/// (it applies to no element).
public enum NanopbOptionElementKind: String, Equatable, Hashable, Sendable, Codable {
    case file, message, field, oneof, pattern
    case enumType = "enum"
}

public struct NanopbOptionSetting: Equatable, Hashable, Sendable, Codable {
    /// The `.proto` file of the element.
    public var file: String
    /// Full proto name: `pkg.Msg.field`, `pkg.Msg.oneof`, `pkg.Msg`, `pkg.Enum`, or the file name.
    public var element: String
    /// What kind of element it is set on.
    public var kind: NanopbOptionElementKind
    /// The NanoPBOptions field (`int_size`, `type`, `anonymous_oneof`, ...).
    public var option: String
    /// Its value in text format (`IS_8`, `FT_IGNORE`, `true`, `"<vector>"`).
    public var value: String
    /// Where it came from: an options file (relative to the schema root) or `(nanopb) annotation`.
    public var source: String
    /// Why nanopb 0.4.7 cannot read it (an option name or number it does not know, an element
    /// it reads no annotation from); nil for an option it reads. An unread option is never applied.
    public var unread: String?

    public init(file: String, element: String, kind: NanopbOptionElementKind, option: String, value: String, source: String, unread: String? = nil) {
        self.file = file; self.element = element; self.kind = kind; self.option = option; self.value = value; self.source = source
        self.unread = unread
    }

    /// Reads the JSON array scripts/proto-options.py writes.
    static func load(_ path: String) throws(GeneratorError) -> [NanopbOptionSetting] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .io(path: path, reason: "cannot read") }
        do { return try JSONDecoder().decode([NanopbOptionSetting].self, from: data) } catch {
            throw .io(path: path, reason: "not a nanopb options report: \(error)")
        }
    }

    var label: String { "\(file): \(element): \(option) = \(value) (from \(source))" }
}

/// What generation does with the schema's own nanopb options.
public enum NanopbOptionsMode: String, Equatable, Sendable {
    /// Default: none is applied; every one is reported as skipped with its reason.
    case skip
    /// Options the facades can match are applied; any other refuses generation.
    case honour
}

/// The plan's decision on one setting.
enum NanopbOptionDecision: Equatable {
    /// Applied to nanopb and matched by the facades (the string is the nanopb options-file text).
    case honoured
    /// Not applied; the reason is printed.
    case skipped(reason: String)
    /// Cannot be honoured: generation stops with this reason and what to do.
    case refused(reason: String)
}

enum NanopbOptionPolicy {
    /// nanopb's C type width for `int_size` on a varint integer field, as Swift type.
    static func intSizeType(_ type: FieldType, _ size: String) -> String? {
        let bits: String
        switch size {
        case "IS_8": bits = "8"
        case "IS_16": bits = "16"
        case "IS_32": bits = "32"
        case "IS_64": bits = "64"
        default: return nil
        }
        switch type {
        case .int32, .int64, .sint32, .sint64: return "Int" + bits
        case .uint32, .uint64: return "UInt" + bits
        default: return nil
        }
    }

    /// Options that only size static storage or add C the facades never use: they change nothing
    /// for FT_POINTER fields, so they are not applied in either mode.
    static let withoutEffect: [String: String] = [
        "max_size": "sizes static storage only; fields are FT_POINTER",
        "max_length": "sizes static storage only; fields are FT_POINTER",
        "max_count": "sizes static storage only; fields are FT_POINTER",
        "msgid": "adds a C #define the facades do not use",
        "enum_to_string": "adds C functions the facades do not use",
    ]

    /// Decides one setting. `field` is the field it applies to (kind `field`), if any.
    static func decide(_ setting: NanopbOptionSetting, field: FieldSchema?, mode: NanopbOptionsMode) -> NanopbOptionDecision {
        if let unread = setting.unread {
            return mode == .skip ? .skipped(reason: "not read: \(unread)") : .refused(reason: "cannot be honoured: \(unread)")
        }
        if let reason = withoutEffect[setting.option] { return .skipped(reason: "no effect: \(reason)") }
        if setting.option == "type" && setting.value == "FT_POINTER" { return .skipped(reason: "no effect: every field is FT_POINTER already") }
        let honourable = honourableReason(setting, field: field)
        switch mode {
        case .skip:
            if honourable == nil {
                return .skipped(reason: "changes the C layout; the facades are generated for nanopb's default layout (set NANOPB_OPTIONS_MODE=honour / --honour-options to apply it)")
            }
            return .skipped(reason: "changes the generated C; not supported by the facades")
        case .honour:
            if honourable == nil { return .honoured }
            return .refused(reason: honourable!)
        }
    }

    /// nil when the facades can match the option; else why not.
    private static func honourableReason(_ setting: NanopbOptionSetting, field: FieldSchema?) -> String? {
        switch (setting.kind, setting.option) {
        case (.field, "int_size"):
            guard let field, intSizeType(field.type, setting.value) != nil else {
                return "int_size applies to int32/int64/uint32/uint64/sint32/sint64 fields only"
            }
            if let text = field.defaultValue, !defaultFits(text, in: intSizeType(field.type, setting.value)!) {
                return "the field's [default = \(text)] does not fit \(setting.value)"
            }
            return nil
        case (.field, "type") where setting.value == "FT_IGNORE": return nil
        case (.oneof, "type") where setting.value == "FT_IGNORE": return nil
        case (.oneof, "anonymous_oneof"): return nil
        case (_, "type"):
            return "\(setting.value) is not supported: the Swift runtime needs every field FT_POINTER (FT_IGNORE is honoured)"
        default:
            return "\(setting.option) is not supported by the facades (honoured: int_size, anonymous_oneof, type:FT_IGNORE)"
        }
    }

    private static func defaultFits(_ text: String, in swiftType: String) -> Bool {
        let bits = Int(swiftType.drop { !$0.isNumber })!
        let signed = swiftType.hasPrefix("Int")
        guard let value = Int128(text) else { return false }
        let low: Int128 = signed ? -(Int128(1) << (bits - 1)) : 0
        let high: Int128 = signed ? (Int128(1) << (bits - 1)) - 1 : (Int128(1) << bits) - 1
        return value >= low && value <= high
    }
}
