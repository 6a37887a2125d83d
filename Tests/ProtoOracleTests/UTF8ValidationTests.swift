@testable import ProtoOracle
import Testing

/// The oracle's UTF-8 check (proto3 strings) against Swift's own validator, an implementation
/// written apart from it: every one- and two-byte input, every lead byte with continuation bytes
/// at and beyond each boundary of its allowed range, at the end of the input and followed by more,
/// and seeded random inputs. Where the oracle says an input is ill-formed, everything before the
/// offset it names must be well-formed.
@Suite struct UTF8ValidationTests {
    static func swiftAccepts(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    static func check(_ bytes: [UInt8]) -> Bool {
        let invalidAt = Wire.firstInvalidUTF8(bytes, 0..<bytes.count)
        guard (invalidAt == nil) == swiftAccepts(bytes) else { return false }
        if let invalidAt { return invalidAt < bytes.count && swiftAccepts(Array(bytes[..<invalidAt])) }
        return true
    }

    @Test func everyOneAndTwoByteInputAgreesWithSwift() {
        var disagreements: [[UInt8]] = []
        for a in 0...255 {
            if !Self.check([UInt8(a)]) { disagreements.append([UInt8(a)]) }
            for b in 0...255 where !Self.check([UInt8(a), UInt8(b)]) { disagreements.append([UInt8(a), UInt8(b)]) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test func threeAndFourByteSequencesAtEveryBoundaryAgreeWithSwift() {
        let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        var disagreements: [[UInt8]] = []
        for lead in 0xE0...0xFF {
            for second in edges {
                for third in edges {
                    for tail: [UInt8] in [[], [0x61], [0x80], [0x80, 0x80], [0xBF, 0x61]] {
                        let bytes = [UInt8(lead), second, third] + tail
                        if !Self.check(bytes) { disagreements.append(bytes) }
                        if !Self.check([0x61] + bytes) { disagreements.append([0x61] + bytes) }
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test func seededRandomInputsAgreeWithSwift() {
        var rng = SplitMix64(seed: 0x07F8)
        // Bytes drawn mostly from the interesting ranges: ASCII, continuations, leads, invalid.
        let pools: [ClosedRange<UInt8>] = [0x00...0x7F, 0x80...0xBF, 0xC0...0xDF, 0xE0...0xEF, 0xF0...0xF7, 0xF8...0xFF]
        var disagreements: [[UInt8]] = []
        for _ in 0..<50_000 {
            let length = Int(rng.next() % 9)
            var bytes: [UInt8] = []
            for _ in 0..<length {
                let pool = pools[Int(rng.next() % UInt64(pools.count))]
                bytes.append(pool.lowerBound &+ UInt8(rng.next() % UInt64(Int(pool.upperBound) - Int(pool.lowerBound) + 1)))
            }
            if !Self.check(bytes) { disagreements.append(bytes) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test func aRangeIsCheckedWithinItsBoundsOnly() {
        // An ill-formed byte outside the range is not the range's business; offsets are absolute.
        let bytes: [UInt8] = [0xFF, 0x61, 0xF4, 0x8F, 0xBF, 0xBF, 0xFF]
        #expect(Wire.firstInvalidUTF8(bytes, 1..<6) == nil)
        #expect(Wire.firstInvalidUTF8(bytes, 1..<5) == 2)
        #expect(Wire.firstInvalidUTF8(bytes, 1..<7) == 6)
    }
}
