/// Why a descriptor set could not be turned into a `SchemaSet`.
public enum SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read; `errno` as reported by the C library.
    case unreadable(path: String, errno: Int32)
    /// The bytes are not a well-formed protobuf encoding of `FileDescriptorSet`.
    case malformed(reason: String, offset: Int)
    /// A field names a message or enum type that no file in the set declares.
    case unresolvedType(field: String, typeName: String)
    /// Two declarations share one fully qualified name.
    case duplicateName(String)

    public var description: String {
        switch self {
        case let .unreadable(path, errno): return "cannot read \(path) (errno \(errno))"
        case let .malformed(reason, offset): return "malformed descriptor set at byte \(offset): \(reason)"
        case let .unresolvedType(field, typeName): return "field \(field) refers to unknown type \(typeName)"
        case let .duplicateName(name): return "duplicate declaration of \(name)"
        }
    }
}
