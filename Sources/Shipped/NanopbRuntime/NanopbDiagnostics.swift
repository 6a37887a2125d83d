// Reporting for failures on paths that cannot throw (builder setters, the `modifying` copy).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the runtime reports failures it cannot throw: a setter whose value could not be stored
/// (the field is left unchanged) or a copy that failed (the copy is empty). These fire only on
/// allocation failure or on a message that cannot be encoded (a proto2 required field missing).
/// They never crash.
public enum NanopbDiagnostics {
    /// Receives each report as one line. `nil` (the default) writes the line to stderr.
    /// A task-local, so a test or a subsystem can capture reports for its own scope without a
    /// global mutable hook (and without a lock):
    /// `NanopbDiagnostics.$handler.withValue({ lines.append($0) }) { ... }`.
    @TaskLocal public static var handler: (@Sendable (String) -> Void)?

    static func report(_ operation: String, _ detail: CustomStringConvertible) {
        let line = "NanopbRuntime: \(operation) failed: \(detail)"
        guard let handler else {
            // write(2) on fd 2 rather than stdio's `stderr`, a global Swift 6 treats as shared state.
            var text = line + "\n"
            _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
            return
        }
        handler(line)
    }
}
