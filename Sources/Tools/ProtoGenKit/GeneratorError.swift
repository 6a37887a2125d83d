import ProtoSchema

/// Why protogen refused to generate. Each case names what to fix; nothing is written on failure.
public enum GeneratorError: Error, Equatable, CustomStringConvertible {
    /// The command line is wrong.
    case usage(String)
    /// The descriptor set could not be loaded.
    case schema(SchemaError)
    /// A schema element the facades (or nanopb) cannot represent.
    case unsupported(file: String, element: String, reason: String)
    /// Two schema elements map to one Swift type name.
    case nameCollision(name: String, first: String, second: String)
    /// A file or folder could not be read or written.
    case io(path: String, reason: String)
    /// Generated code broke an invariant the generator checks on its own output.
    case invariant(file: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .usage(let message): return message
        case .schema(let error): return "cannot load descriptor set: \(error)"
        case let .unsupported(file, element, reason): return "\(file): \(element): \(reason)"
        case let .nameCollision(name, first, second):
            return "\(first) and \(second) both map to the Swift name \(name); rename one of them"
        case let .io(path, reason): return "\(path): \(reason)"
        case let .invariant(file, line, reason): return "generated \(file):\(line): \(reason) (generator bug)"
        }
    }
}
