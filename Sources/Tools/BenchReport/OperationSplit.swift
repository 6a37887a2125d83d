// Where one operation of the facades or of plain nanopb C goes: nanopb's own entry points, the
// counted allocator under them, and the rest (the Swift layer, or C's loop). Read from listings
// that callgrind collected inside the program's loops only (--toggle-collect in
// RatioStep), so every nanopb function in them ran for a measured operation.

import Foundation

/// Instructions per operation of one program's encode or decode loop, split by who spends them.
/// `nanopb` includes `allocator`; `loop - nanopb` is what the program adds around nanopb.
public struct OperationSplit: Codable, Equatable, Sendable {
    /// The loop's inclusive cost per operation (the figure the ratios use).
    public var loop: Double
    /// nanopb's entry points per operation: decode and release, or sizing and encode.
    public var nanopb: Double
    /// nanopb's counted allocator (realloc, malloc, calloc, free) per operation; part of `nanopb`.
    public var allocator: Double

    /// What the program spends outside nanopb's entry points: the Swift layer for the facades.
    public var outsideNanopb: Double { loop - nanopb }

    /// nanopb's entry points that one operation of `kind` calls from the loop.
    static let entryPoints = ["decode": ["wp_pb_decode", "wp_pb_release"], "encode": ["wp_pb_get_encoded_size", "wp_pb_encode"]]
    static let allocatorFunctions = ["wp_pb_counted_realloc", "wp_pb_counted_malloc", "wp_pb_counted_calloc", "wp_pb_counted_free"]

    /// Whether `listing` was collected inside the loops only: its program total is the loops'
    /// (`loopsTotal`, all of them together), within 1 %. A listing of the whole program would
    /// put set-up work into nanopb's entry points, so only such listings are split.
    public static func collectedInLoopsOnly(_ listing: String, loopsTotal: Int) -> Bool {
        guard let total = CallgrindListing.inclusive(listing, matching: "PROGRAM TOTALS"), total > 0 else { return false }
        return Double(loopsTotal) >= 0.99 * Double(total)
    }

    /// The split of `kind` ("decode", "encode") from a loop-only listing (`collectedInLoopsOnly`),
    /// or nil when the listing names none of nanopb's entry points for it.
    ///
    /// Only decode allocates through nanopb (encode writes into the caller's buffer), so the
    /// allocator's whole count is decode's; encode reports 0.
    public static func read(_ listing: String, kind: String, loop: Double, iterations: Int) -> OperationSplit? {
        // The unprimed line of a recursive function is its outermost call: the whole cost once.
        let cost = { (name: String) in CallgrindListing.inclusive(listing, matching: #"\?\?\?:"# + name + #" \["#) }
        let entries = (entryPoints[kind] ?? []).compactMap(cost)
        guard !entries.isEmpty else { return nil }
        let n = Double(iterations)
        let allocator = kind == "decode" ? allocatorFunctions.compactMap(cost).reduce(0, +) : 0
        return OperationSplit(loop: loop, nanopb: Double(entries.reduce(0, +)) / n, allocator: Double(allocator) / n)
    }
}
