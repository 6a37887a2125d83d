// Readable byte comparisons for failure reports.

/// Hex of bytes, cut to a readable length.
public func hexPreview(_ bytes: [UInt8], limit: Int = 96) -> String {
    let digits = Array("0123456789abcdef")
    let shown = bytes.prefix(limit).map { String([digits[Int($0 >> 4)], digits[Int($0 & 0xF)]]) }.joined(separator: " ")
    return bytes.count > limit ? "\(shown) … (\(bytes.count) bytes)" : shown
}

/// Index of the first differing byte, or the shorter length when one is a prefix of the other.
public func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a.indices, zip(a, b)).first { $0.1.0 != $0.1.1 }?.0 ?? min(a.count, b.count)
}
