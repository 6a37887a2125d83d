// Shared helpers for the runtime's tests.

import Testing
import NanopbRuntime

/// Lines reported while a test body runs. Appended to only from the reporting task.
final class ReportLines: @unchecked Sendable { var items: [String] = [] }

/// Collects the runtime's failure reports for the duration of `body` (task-local, so parallel
/// tests do not see each other's reports).
func capturingReports<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
    let lines = ReportLines()
    let result = try NanopbDiagnostics.$handler.withValue({ lines.items.append($0) }) { try body() }
    return (result, lines.items)
}
