// NanopbElements: a facade's `for … in` over a repeated field's elements (map entries).

import CNanopb

/// The elements of a repeated field (map entries), read one by one through typed `pointee` loads.
/// `next()` is `@_transparent`, so a `for … in` in a facade inlines it with the concrete entry type
/// even in a debug build, and the load is instrumented (a standard-library buffer iterator, or an
/// unspecialised generic load, would be a call into the uninstrumented runtime). Valid while the
/// message that owns the array is alive and unchanged.
@_spi(NanopbFacade) public struct NanopbElements<Element>: Sequence, IteratorProtocol {
    @usableFromInline let base: UnsafeMutablePointer<Element>?
    @usableFromInline let count: Int
    @usableFromInline var index = 0

    @usableFromInline init(_ base: UnsafeMutablePointer<Element>?, _ count: pb_size_t) {
        self.base = base
        self.count = base == nil ? 0 : Int(count)
    }

    public var underestimatedCount: Int { count - index }

    @_transparent
    public mutating func next() -> Element? {
        guard index < count, let base else { return nil }
        // SAFETY: repeated fields keep `count` initialised elements at `base` (decoder and setters).
        let element = (base + index).pointee
        index += 1
        return element
    }
}
