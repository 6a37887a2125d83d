// What the rules must not see. Lines are blanked, never removed (blank lines are not mutated, and
// line numbers stay): a Python docstring's lines, and the body of a shell here-document (prose, or
// code in another language: deleting a Python line of it with `:` is no fault of the script's).
// In Python and shell, `/*` (a glob such as `"$dir"/*.h`) would read as a C block comment and hide
// every line after it: it is replaced by `globMask`, of the same length, which no rule matches, and
// put back in each mutant.

import Foundation

public enum ProseMask {
    /// Stands for `/*` in masked Python and shell lines.
    public static let globMask = "\u{01}\u{02}"

    /// `source` (lines with their newlines) as the rules should see it, for the file at `path`.
    public static func masked(path: String, _ source: [String]) -> [String] {
        var masked = source
        let isPython = path.hasSuffix(".py"), isShell = path.hasSuffix(".sh")
        if isPython || isShell {
            masked = source.map { $0.replacingOccurrences(of: "/*", with: globMask) }
        }
        if isPython {
            var inside = false
            for (i, line) in source.enumerated() {
                let quotes = occurrences(of: "\"\"\"", in: line) + occurrences(of: "'''", in: line)
                if inside || quotes > 0 { masked[i] = "\n" }
                if quotes % 2 == 1 { inside.toggle() }
            }
        } else if isShell {
            var end: String?
            for (i, line) in source.enumerated() {
                if let delimiter = end {
                    masked[i] = "\n"
                    if line.trimmingCharacters(in: .whitespacesAndNewlines) == delimiter { end = nil }
                    continue
                }
                if !line.contains("<<<"), let delimiter = hereDocumentDelimiter(line) { end = delimiter }
            }
        }
        return masked
    }

    /// A mutant's line with the glob mask put back.
    public static func unmasked(_ line: String) -> String {
        line.replacingOccurrences(of: globMask, with: "/*")
    }

    /// Non-overlapping occurrences, counted from the left.
    static func occurrences(of needle: String, in line: String) -> Int {
        line.components(separatedBy: needle).count - 1
    }

    private static let hereDocument = try! NSRegularExpression(pattern: "<<-?\\s*['\"]?([A-Za-z_]\\w*)['\"]?")

    /// The word that ends the here-document `line` starts (`<<EOF`, `<<-'EOF'`, `<< "EOF"`), if any.
    static func hereDocumentDelimiter(_ line: String) -> String? {
        let text = line as NSString
        guard let match = hereDocument.firstMatch(in: line, range: NSRange(location: 0, length: text.length)) else { return nil }
        return text.substring(with: match.range(at: 1))
    }
}
