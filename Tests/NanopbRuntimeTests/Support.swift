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

/// The filler of `guardedBytes`' buffer: a store that writes past its slot changes it.
let slotGuardByte: UInt8 = 0xA5

/// Runs `store` on a 16-byte, 8-aligned buffer filled with `slotGuardByte` and returns the buffer's
/// bytes afterwards, so a test can check what a slot store wrote and that it wrote nothing more.
func guardedBytes(_ store: (UnsafeMutableRawPointer) -> Void) -> [UInt8] {
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
    defer { buffer.deallocate() }
    buffer.initializeMemory(as: UInt8.self, repeating: slotGuardByte, count: 16)
    store(buffer)
    return Array(UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: UInt8.self), count: 16))
}
