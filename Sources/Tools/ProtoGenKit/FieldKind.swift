// The plan's one decision per field: how a value is held in the C struct and seen in Swift
// (`ValueKind`), how the field is laid out (`FieldPlan.Shape`), and its C member name. Every
// emitter reads these; none looks at `FieldSchema.type` again.

import ProtoSchema

/// How one value of a field is held and accessed.
package struct ValueKind: Equatable {
    enum Category: Equatable { case scalar, bool, enumeration, string, bytes, message }

    let category: Category
    /// The Swift type of one value (`Int32`, `Int8` under `int_size:IS_8`, `String`, `Pkg_Msg`).
    package let swiftType: String
    /// The Swift expression a getter returns when the field is absent.
    let defaultValue: String

    var isMessage: Bool { category == .message }

    /// Reads one value from `slot` (a C pointer member): messages as views on a message, copies
    /// on a builder.
    func read(_ slot: String, builder: Bool) -> String {
        switch category {
        case .string: return "NanopbField.string(\(slot), \(defaultValue))"
        case .bytes: return "NanopbField.bytes(\(slot), \(defaultValue))"
        case .enumeration: return "NanopbField.enumeration(\(slot), \(defaultValue))"
        case .message: return builder ? "NanopbField.copy(\(slot))" : "_view(\(slot))"
        case .scalar, .bool: return "NanopbField.scalar(\(slot), \(defaultValue))"
        }
    }

    /// An expression storing `value` into the slot currently holding `replacing`; `omit` drops
    /// the proto3 zero value (fields without presence).
    func store(_ value: String, replacing: String, omit: Bool) -> String {
        switch category {
        case .string: return "NanopbField.storing(string: \(value), replacing: \(replacing), omitEmpty: \(omit))"
        case .bytes: return "NanopbField.storing(bytes: \(value), replacing: \(replacing), omitEmpty: \(omit))"
        case .enumeration:
            return "NanopbField.storing(enumeration: \(value), replacing: \(replacing), omitting: \(omit ? "\(swiftType)(rawValue: 0)" : "nil"))"
        case .message: return "NanopbField.storing(message: \(value), replacing: \(replacing))"
        case .bool: return "NanopbField.storing(\(value), replacing: \(replacing), omitting: \(omit ? "false" : "nil"))"
        case .scalar: return "NanopbField.storing(\(value), replacing: \(replacing), omitting: \(omit ? "0" : "nil"))"
        }
    }

    /// Releases what `slot` owns (the slot itself is left for the caller to reset).
    func release(_ slot: String) -> String {
        isMessage ? "NanopbField.release(message: \(slot))" : "NanopbField.release(\(slot))"
    }

    /// Reads a repeated field (`slot`, `count` are the C pointer and count members).
    func readArray(_ slot: String, count: String, builder: Bool) -> String {
        switch category {
        case .string: return "NanopbField.strings(\(slot), \(count))"
        case .bytes: return "NanopbField.byteArrays(\(slot), \(count))"
        case .enumeration: return "NanopbField.enumerations(\(slot), \(count))"
        case .message: return builder ? "NanopbField.copies(\(slot), \(count))" : "_views(\(slot), \(count))"
        case .scalar, .bool: return "NanopbField.array(\(slot), \(count))"
        }
    }

    /// Stores `newValue` (an array) into a repeated field.
    func storeArray(_ slot: String, count: String) -> String {
        let label: String
        switch category {
        case .string: label = "strings"
        case .bytes: label = "byteArrays"
        case .enumeration: label = "enumerations"
        case .message: label = "messages"
        case .scalar, .bool: label = "array"
        }
        // Messages are handed over (`consume`), so uniquely owned elements are adopted, not copied.
        let value = category == .message ? "consume newValue" : "newValue"
        return "NanopbField.storing(\(label): \(value), replacing: \(slot), count: \(count))"
    }
}

/// One field as the plan decided it.
struct FieldPlan {
    enum Shape {
        /// A singular field outside a real oneof; `presence`: has/clear accessors, no zero omission.
        case singular(presence: Bool)
        case repeated
        /// A map: key and value kinds, the entry struct's C name (for its `_msg` descriptor).
        case map(key: ValueKind, value: ValueKind, entryCName: String)
        /// A member of the real oneof at this index of the message's `oneofs`.
        case oneofMember(index: Int)
    }

    let field: FieldSchema
    /// The C struct member (nanopb's name after `Naming.cIdentifier`).
    let cName: String
    let value: ValueKind
    let shape: Shape
    /// The C member as Swift spells it after a dot (backticks around Swift keywords).
    var cMember: String { Naming.escaped(cName) }
    /// Count member of a repeated field or map: `<cName>_count`.
    var countName: String { "\(cName)_count" }
}

/// One real oneof as the plan decided it.
struct OneofPlan {
    let index: Int
    let oneof: OneofSchema
    /// The C union member; nil under `anonymous_oneof` (members are then direct struct members).
    let unionCName: String?
    /// `which_<name>`: nanopb keeps the proto name here (it is never a keyword on its own).
    let whichCName: String
    /// The Swift enum type of the oneof.
    let typeName: String
    /// Members, in declaration order (FT_IGNORE members left out).
    let members: [FieldPlan]

    /// Path from `_pointer.pointee` to a member of the union.
    func memberPath(_ member: FieldPlan) -> String {
        unionCName.map { "\(Naming.escaped($0)).\(member.cMember)" } ?? member.cMember
    }
}
