// A repeated field holds at most pb_size_t.max elements (its `_count` is a pb_size_t). A longer
// replacement is refused before anything is allocated: the field keeps its old array and the
// refusal is reported. Arrays that long do not fit a test machine's memory, so the test calls the
// primitive every array setter goes through with the count alone.

import CNanopb
@_spi(NanopbFacade) @testable import NanopbRuntime
import TestSupport
import Testing

@Suite struct RepeatedCountLimitTests {
    @Test func aCountBeyondPbSizeTKeepsTheOldArrayAndIsReported() {
        let tooMany = Int(pb_size_t.max) + 1
        let old = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        defer { old.deallocate() }
        var released = 0, filled = 0
        let (result, lines) = capturingReports {
            NanopbField.replacingArray(of: Int32.self, count: tooMany, old: old, oldCount: 2,
                                       release: { _, _ in released += 1 }, fill: { _ in filled += 1; return true })
        }
        #expect(result.0 == old && result.1 == 2)
        #expect(released == 0 && filled == 0)
        #expect(lines == ["NanopbRuntime: setting a repeated field failed: \(tooMany) elements exceed pb_size_t"])
    }

    @Test func theLargestCountIsNotRefusedByTheLimit() {
        // pb_size_t.max itself passes the limit; the allocation is refused instead (hooks set to
        // fail the next allocation), so nothing of that size is ever touched.
        let old = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        defer { old.deallocate() }
        let (outcome, lines) = capturingReports {
            withAllocationsRefused(after: 0) {
                NanopbField.replacingArray(of: Int32.self, count: Int(pb_size_t.max), old: old, oldCount: 1,
                                           release: { _, _ in }, fill: { _ in true })
            }
        }
        #expect(outcome.refused)
        #expect(outcome.result.0 == old && outcome.result.1 == 1)
        #expect(lines.count == 1 && !lines[0].contains("exceed pb_size_t"), "\(lines)")
    }
}
