// Why `wireproof check-protocol` or `wireproof nanopb-symbols` could not reach a verdict (as
// opposed to reaching one and finding a difference, which is a result, not an error).

/// One line each, naming what failed.
public enum ProtocolCheckError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A file or folder the check reads is not there; `remedy` says what puts it there.
    case missing(path: String, remedy: String)
    /// A file could not be read, written or listed.
    case io(path: String, reason: String)
    /// A tool (cc, nm, git) could not be started or exited non-zero; `output` is its first line.
    case tool(command: String, status: Int32, output: String)
    /// The generator refused the schema.
    case generation(String)
    /// The configuration header defines no `PB_*` option, so the runtime would be compiled bare.
    case noOptionMacros(config: String)
    /// nanopb's runtime exports symbols the `pb_` → `wp_pb_` scheme does not rename.
    case outsideNamespace([String])
    /// `pb.h` does not spell `#define NANOPB_VERSION "…"`.
    case noVersion(header: String)

    public var description: String {
        switch self {
        case .missing(let path, let remedy): "\(path) is missing; \(remedy)"
        case .io(let path, let reason): "\(path): \(reason)"
        case .tool(let command, let status, let output):
            "\(command) exited with status \(status)" + (output.isEmpty ? "" : ": \(output)")
        case .generation(let reason): "generation failed: \(reason)"
        case .noOptionMacros(let config): "no PB_* option is defined in \(config)"
        case .outsideNamespace(let symbols):
            "nanopb's runtime exports symbols outside the pb_ namespace (extend the rename scheme): \(symbols.joined(separator: ", "))"
        case .noVersion(let header): "no NANOPB_VERSION in \(header)"
        }
    }
}
