// Allocation accounting for tests: every heap block of a message tree goes through the counted hooks
// of CNanopb (wireproof_pb_alloc.h), so a test can assert that decoding, building, modifying and
// releasing messages leaves no block behind -- a leak caught in every ordinary run, no sanitizer.

import CNanopb
import Testing

/// Blocks allocated minus blocks freed through the runtime's hooks on the calling thread.
public func liveNanopbAllocations() -> Int64 { wp_pb_live_allocations_on_this_thread() }

/// Runs `body` and records an issue if it leaves a different number of live nanopb/runtime heap
/// blocks on this thread than it found. Returns what the last run of `body` returned.
///
/// `body` runs twice; only the second run is measured. The first run makes the one-time, never
/// freed allocations a message type makes on first use (its shared empty value, a `static let`), so
/// they are not mistaken for a leak. Everything `body` creates must be released before it returns
/// (return plain values, not messages), and it must not hand messages to other threads: the count
/// is per thread, so a tree freed elsewhere would show as a leak here.
@discardableResult
public func expectBalancedAllocations<T>(
    _ what: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) rethrows -> T {
    _ = try body()
    let before = liveNanopbAllocations()
    let result = try body()
    let after = liveNanopbAllocations()
    #expect(after == before, "live allocations \(before) -> \(after)\(what.map { ": \($0)" } ?? "")",
            sourceLocation: sourceLocation)
    return result
}

/// Runs `body` with the first `allowed` heap blocks the hooks hand out on this thread succeeding
/// and every later request refused (`wp_pb_fail_allocations_after`), as an exhausted allocator
/// would; returns what `body` returned and whether any request was refused. The injection is off
/// again when this returns.
public func withAllocationsRefused<T>(after allowed: Int, _ body: () throws -> T) rethrows -> (result: T, refused: Bool) {
    wp_pb_fail_allocations_after(Int64(allowed))
    defer { wp_pb_fail_allocations_after(-1) }
    let result = try body()
    return (result, wp_pb_refused_allocations_on_this_thread() > 0)
}

/// Runs `body` and returns what it returned with the bytes that the successful allocations it made
/// through the hooks asked for on this thread (calloc: count x size; realloc: the new size). The
/// block count cannot tell a one-byte string from a two-byte one; this can.
public func requestingNanopbBytes<T>(_ body: () throws -> T) rethrows -> (result: T, bytes: UInt64) {
    let before = wp_pb_requested_bytes_on_this_thread()
    let result = try body()
    return (result, wp_pb_requested_bytes_on_this_thread() - before)
}
