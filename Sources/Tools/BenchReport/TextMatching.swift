// Small text helpers shared by the parsers of tool output (nm, readelf, size, callgrind_annotate):
// whitespace fields and anchored regular expressions.

import Foundation

/// Splitting and matching of one line of a tool's output.
enum TextMatching {
    /// The line's whitespace-separated fields, at most `maxFields`: the last field holds the rest of
    /// the line (its leading blanks dropped, the rest kept), like Python's `split(maxsplit:)`.
    static func fields(_ line: Substring, max maxFields: Int = Int.max) -> [Substring] {
        var result: [Substring] = []
        var rest = line.drop { $0 == " " || $0 == "\t" }
        while !rest.isEmpty {
            if result.count == maxFields - 1 {
                result.append(rest)
                break
            }
            let end = rest.firstIndex { $0 == " " || $0 == "\t" } ?? rest.endIndex
            result.append(rest[..<end])
            rest = rest[end...].drop { $0 == " " || $0 == "\t" }
        }
        return result
    }

    /// A regular expression that must be valid (the report's own patterns; a bad one is a bug).
    static func regex(_ pattern: String) -> NSRegularExpression {
        // The patterns are literals of this module or built from escaped symbol names.
        try! NSRegularExpression(pattern: pattern)
    }

    /// The capture groups of `regex` matched at the start of `line`, or nil (group 0 excluded;
    /// an unmatched optional group is "").
    static func matchAtStart(_ regex: NSRegularExpression, _ line: String) -> [String]? {
        let range = NSRange(line.startIndex..., in: line)
        guard let match = regex.firstMatch(in: line, options: .anchored, range: range) else { return nil }
        return (1..<match.numberOfRanges).map { i in
            Range(match.range(at: i), in: line).map { String(line[$0]) } ?? ""
        }
    }

    /// Whether `regex` matches anywhere in `text`.
    static func contains(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// "1,234,567" → 1234567 (callgrind_annotate's counts), or nil.
    static func count(_ text: String) -> Int? {
        Int(text.replacingOccurrences(of: ",", with: ""))
    }

    /// The lines of a file's text, without their line ends.
    static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
    }
}
