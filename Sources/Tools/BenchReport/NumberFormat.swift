// How the bench report spells numbers: thousands separated by commas, fixed decimals, padded
// columns. One place, so the terminal report and docs/measurements.md agree digit for digit.

import Foundation

/// Number and column formatting of the bench report (C `printf` rounding: the exact binary value
/// rounded half to even, as the report always did).
public enum NumberFormat {
    /// `n` with a comma every three digits: 1234567 → "1,234,567", -1234 → "-1,234".
    public static func grouped(_ n: Int) -> String {
        groupDigits(String(n))
    }

    /// `x` rounded to `decimals` places, integer part grouped: (1234.56, 1) → "1,234.6".
    public static func grouped(_ x: Double, decimals: Int) -> String {
        groupDigits(String(format: "%.\(decimals)f", x))
    }

    /// `x` rounded to `decimals` places, no grouping: (0.866, 2) → "0.87".
    public static func fixed(_ x: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", x)
    }

    /// Bytes as KiB with one decimal: 327927 → "320.2 KiB".
    public static func kib(_ bytes: Int) -> String {
        grouped(Double(bytes) / 1024, decimals: 1) + " KiB"
    }

    /// `text` padded with spaces on the left to `width` characters (never cut).
    public static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// `text` padded with spaces on the right to `width` characters (never cut).
    public static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// Inserts commas into the integer digits of a printed number ("-1234.5" → "-1,234.5").
    static func groupDigits(_ printed: String) -> String {
        var sign = ""
        var body = Substring(printed)
        if body.first == "-" { sign = "-"; body = body.dropFirst() }
        let point = body.firstIndex(of: ".") ?? body.endIndex
        let digits = Array(body[..<point])
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return sign + out + body[point...]
    }
}
