import Foundation
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
    /// Generated code broke an invariant the generator checks on its own output (the
    /// emitter's model of it): the file, the declaration, what is wrong.
    case invariant(file: String, declaration: String, reason: String)
    /// nanopb options the facades cannot honour (one line each: file, element, option, what to do).
    case optionsRefused([String])
    /// protoc or nanopb's Python code failed; its exit status and what it printed.
    case tool(what: String, status: Int32, output: String)

    public var description: String {
        switch self {
        case .usage(let message): return message
        case .schema(let error): return "cannot load descriptor set: \(error)"
        case let .unsupported(file, element, reason): return "\(file): \(element): \(reason)"
        case let .nameCollision(name, first, second):
            return "\(first) and \(second) both map to the Swift name \(name); rename one of them"
        case let .io(path, reason): return "\(path): \(reason)"
        case let .invariant(file, declaration, reason): return "generated \(file): \(declaration): \(reason) (generator bug)"
        case let .optionsRefused(lines):
            return "nanopb options the facades cannot honour:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
        case let .tool(what, status, output):
            return "\(what) failed (exit \(status))" + (output.isEmpty ? "" : ":\n" + output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
