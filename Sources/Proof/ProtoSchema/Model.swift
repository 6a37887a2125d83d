/// The schema model: what protoc knows about a set of `.proto` files, decoded from a
/// `FileDescriptorSet` (see `SchemaSet.init(descriptorSet:)`).
///
/// Invariants every consumer may rely on:
/// - Type names are fully qualified *without* the leading dot (`pkg.Outer.Inner`).
/// - `SchemaSet.messages` / `enums` hold every message and enum of every file, nested ones
///   included, in declaration order (a file's top-level types first, then depth-first nesting as
///   protoc lists them). Lookups by full name are O(1).
/// - Field lists keep declaration order; `MessageSchema.fieldsByNumber` is sorted by number.
/// - Nothing here depends on a particular schema; the bundled one is just the default input.

/// The syntax a file was written in.
public enum Syntax: String, Sendable, Hashable {
    case proto2
    case proto3
    /// `edition = "..."` files; recognised so callers can refuse them with a clear error.
    case editions
}

/// A field's declared cardinality.
public enum FieldLabel: Int, Sendable, Hashable {
    case optional = 1
    case required = 2
    case repeated = 3
}

/// Wire-level field types, numbered as in `FieldDescriptorProto.Type`.
public enum FieldType: Int, Sendable, Hashable, CaseIterable {
    case double = 1, float = 2, int64 = 3, uint64 = 4, int32 = 5, fixed64 = 6, fixed32 = 7
    case bool = 8, string = 9, group = 10, message = 11, bytes = 12, uint32 = 13, `enum` = 14
    case sfixed32 = 15, sfixed64 = 16, sint32 = 17, sint64 = 18

    /// The protobuf wire type a single (unpacked) value of this type uses.
    public var wireType: WireType {
        switch self {
        case .int32, .int64, .uint32, .uint64, .sint32, .sint64, .bool, .enum: return .varint
        case .fixed64, .sfixed64, .double: return .fixed64
        case .fixed32, .sfixed32, .float: return .fixed32
        case .string, .bytes, .message: return .lengthDelimited
        case .group: return .startGroup
        }
    }

    /// Scalar numeric types (and enums) may be packed; strings, bytes, messages and groups never.
    public var isPackable: Bool {
        switch wireType {
        case .varint, .fixed32, .fixed64: return true
        default: return false
        }
    }

    /// The `.proto` spelling of the type (`sfixed32`, `message`, ...).
    public var protoName: String {
        switch self {
        case .enum: return "enum"
        default: return String(describing: self)
        }
    }
}

/// The six wire types of the protobuf encoding.
public enum WireType: UInt8, Sendable, Hashable {
    case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5
}

/// One field of a message (or one extension).
public struct FieldSchema: Sendable, Hashable {
    public let name: String
    public let number: Int32
    public let label: FieldLabel
    public let type: FieldType
    /// Fully qualified message or enum name for `.message`, `.group` and `.enum`; nil otherwise.
    public let typeName: String?
    /// Index into the owning message's `oneofs`, synthetic oneofs included.
    public let oneofIndex: Int?
    /// `optional` on a proto3 field (which protoc wraps in a synthetic oneof).
    public let isProto3Optional: Bool
    /// The `[packed = ...]` option exactly as written; nil when absent.
    public let packedOption: Bool?
    /// Effective packing for encoding: proto3 packs packable repeated fields unless
    /// `[packed = false]`; proto2 packs only with `[packed = true]`.
    public let isPacked: Bool
    /// Proto2 `[default = ...]` in protoc's textual form; nil when absent.
    public let defaultValue: String?
    public let jsonName: String
    /// True when the field tracks presence (has/clear semantics): every singular field in proto2,
    /// and in proto3 message fields, oneof members and `optional` fields.
    public let hasPresence: Bool
    /// For extensions: the fully qualified extended message; nil for ordinary fields.
    public let extendee: String?
    /// Fully qualified name of the message that declares the field, or the file's package for a
    /// top-level extension.
    public let scope: String

    public var isRepeated: Bool { label == .repeated }
    public var isExtension: Bool { extendee != nil }

    public init(
        name: String, number: Int32, label: FieldLabel, type: FieldType, typeName: String?,
        oneofIndex: Int?, isProto3Optional: Bool, packedOption: Bool?, isPacked: Bool,
        defaultValue: String?, jsonName: String, hasPresence: Bool, extendee: String?, scope: String
    ) {
        self.name = name; self.number = number; self.label = label; self.type = type
        self.typeName = typeName; self.oneofIndex = oneofIndex; self.isProto3Optional = isProto3Optional
        self.packedOption = packedOption; self.isPacked = isPacked; self.defaultValue = defaultValue
        self.jsonName = jsonName; self.hasPresence = hasPresence; self.extendee = extendee; self.scope = scope
    }
}

/// A `oneof` declaration. Synthetic oneofs are the ones protoc makes for proto3 `optional`.
public struct OneofSchema: Sendable, Hashable {
    public let name: String
    /// Member field numbers in declaration order.
    public let fieldNumbers: [Int32]
    /// True for the single-member oneof protoc synthesises for a proto3 `optional` field.
    public let isSynthetic: Bool

    public init(name: String, fieldNumbers: [Int32], isSynthetic: Bool) {
        self.name = name; self.fieldNumbers = fieldNumbers; self.isSynthetic = isSynthetic
    }
}

/// A message type.
public struct MessageSchema: Sendable, Hashable {
    /// Fully qualified name, e.g. `pkg.Outer.Inner`.
    public let fullName: String
    /// The last component of `fullName`.
    public let name: String
    /// The `.proto` file that declares it (its name as given to protoc).
    public let file: String
    /// The file's package ("" when none).
    public let package: String
    /// Fully qualified name of the enclosing message; nil at top level.
    public let parent: String?
    public let syntax: Syntax
    /// Fields in declaration order.
    public let fields: [FieldSchema]
    /// Oneofs in declaration order, synthetic ones included (fields index into this array).
    public let oneofs: [OneofSchema]
    /// Fully qualified names of directly nested messages (map entries included) and enums.
    public let nestedMessages: [String]
    public let nestedEnums: [String]
    /// True for the `XxxEntry` message protoc synthesises for a `map<K, V>` field.
    public let isMapEntry: Bool
    /// Extensions declared inside this message (`extend Foo { ... }` nested in it).
    public let extensions: [FieldSchema]
    /// Declared `extensions a to b;` ranges, `end` exclusive.
    public let extensionRanges: [ClosedRange<Int32>]

    public init(
        fullName: String, name: String, file: String, package: String, parent: String?, syntax: Syntax,
        fields: [FieldSchema], oneofs: [OneofSchema], nestedMessages: [String], nestedEnums: [String],
        isMapEntry: Bool, extensions: [FieldSchema], extensionRanges: [ClosedRange<Int32>]
    ) {
        self.fullName = fullName; self.name = name; self.file = file; self.package = package
        self.parent = parent; self.syntax = syntax; self.fields = fields; self.oneofs = oneofs
        self.nestedMessages = nestedMessages; self.nestedEnums = nestedEnums; self.isMapEntry = isMapEntry
        self.extensions = extensions; self.extensionRanges = extensionRanges
    }

    /// Fields sorted by field number: the order a canonical encoder writes them in.
    public var fieldsByNumber: [FieldSchema] { fields.sorted { $0.number < $1.number } }

    /// The field with this number, if declared.
    public func field(number: Int32) -> FieldSchema? { fields.first { $0.number == number } }

    /// The field with this name, if declared.
    public func field(named name: String) -> FieldSchema? { fields.first { $0.name == name } }

    /// The oneofs a user wrote (synthetic proto3-`optional` oneofs excluded).
    public var realOneofs: [OneofSchema] { oneofs.filter { !$0.isSynthetic } }

    /// For a map entry: the key (number 1) and value (number 2) fields.
    public var mapKey: FieldSchema? { isMapEntry ? field(number: 1) : nil }
    public var mapValue: FieldSchema? { isMapEntry ? field(number: 2) : nil }
}

/// One value of an enum.
public struct EnumValueSchema: Sendable, Hashable {
    public let name: String
    public let number: Int32
    public init(name: String, number: Int32) { self.name = name; self.number = number }
}

/// An enum type.
public struct EnumSchema: Sendable, Hashable {
    public let fullName: String
    public let name: String
    public let file: String
    public let package: String
    /// Fully qualified name of the enclosing message; nil at top level.
    public let parent: String?
    /// Values in declaration order; aliases (same number) each appear.
    public let values: [EnumValueSchema]
    public let allowAlias: Bool
    /// Proto2 enums are closed (unknown numbers are unknown fields); proto3 enums are open.
    public let isClosed: Bool

    public init(
        fullName: String, name: String, file: String, package: String, parent: String?,
        values: [EnumValueSchema], allowAlias: Bool, isClosed: Bool
    ) {
        self.fullName = fullName; self.name = name; self.file = file; self.package = package
        self.parent = parent; self.values = values; self.allowAlias = allowAlias; self.isClosed = isClosed
    }

    /// The first declared value: the default of an enum field without an explicit default.
    public var defaultValue: EnumValueSchema? { values.first }

    /// The first declared name for a number (aliases resolve to the first spelling).
    public func name(for number: Int32) -> String? { values.first { $0.number == number }?.name }
}

/// One `.proto` file.
public struct FileSchema: Sendable, Hashable {
    /// The file name as protoc saw it, e.g. `media/room.proto`.
    public let name: String
    public let package: String
    public let syntax: Syntax
    /// Imported file names, in declaration order.
    public let dependencies: [String]
    public let publicDependencies: [String]
    /// Fully qualified names of the top-level messages and enums.
    public let messages: [String]
    public let enums: [String]
    /// Top-level extensions.
    public let extensions: [FieldSchema]
    /// `option swift_prefix`, when set.
    public let swiftPrefix: String?

    public init(
        name: String, package: String, syntax: Syntax, dependencies: [String], publicDependencies: [String],
        messages: [String], enums: [String], extensions: [FieldSchema], swiftPrefix: String?
    ) {
        self.name = name; self.package = package; self.syntax = syntax; self.dependencies = dependencies
        self.publicDependencies = publicDependencies; self.messages = messages; self.enums = enums
        self.extensions = extensions; self.swiftPrefix = swiftPrefix
    }
}
