// The map-entry sequence a facade's `for … in` walks: a NULL array is empty whatever count sits
// beside it (so a standard-library copy, which trusts underestimatedCount, cannot read past it),
// and a live array yields exactly its first `count` entries, in order, the promised count
// shrinking as they are taken.

import Testing
@_spi(NanopbFacade) import NanopbRuntime

@Suite struct MapEntriesTests {
    @Test func aNullArrayIsEmptyWhateverItsCountSays() {
        for count in [0, 1, 3] as [UInt32] {
            let entries = NanopbField.entries(nil as UnsafeMutablePointer<Int32>?, numericCast(count))
            #expect(entries.underestimatedCount == 0, "count \(count)")
            #expect(Array(entries).isEmpty, "count \(count)")
        }
    }

    @Test func aLiveArrayYieldsItsCountEntriesInOrder() {
        let storage = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
        defer { storage.deallocate() }
        storage.initialize(from: [7, 8, 9, 10], count: 4)
        var entries = NanopbField.entries(storage, 3)
        #expect(entries.underestimatedCount == 3)
        #expect(entries.next() == 7)
        #expect(entries.underestimatedCount == 2)
        #expect(Array(NanopbField.entries(storage, 3)) == [7, 8, 9])
        #expect(Array(NanopbField.entries(storage, 0)).isEmpty)
    }
}
