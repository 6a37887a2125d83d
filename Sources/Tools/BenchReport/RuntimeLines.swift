// `wirebench report lines`: lines of the fixed-cost runtime (Sources/Shipped/NanopbRuntime/*.swift),
// and of those the lines that are code (not blank, not only a comment).

import Foundation

/// Line counting of Swift sources.
public enum RuntimeLines {
    /// (all lines, code lines) of one file's text. A final line end does not start a line; a line
    /// that opens a block comment not closed on it makes every line up to the closing one a comment.
    public static func count(_ text: String) -> (lines: Int, code: Int) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        var code = 0
        var inBlock = false
        for line in lines {
            let s = line.trimmingCharacters(in: .whitespaces)
            if inBlock {
                inBlock = !s.contains("*/")
                continue
            }
            if s.isEmpty || s.hasPrefix("//") { continue }
            if s.hasPrefix("/*") {
                inBlock = !s.contains("*/")
                continue
            }
            code += 1
        }
        return (lines.count, code)
    }

    /// Counts `files`, prints the per-file table and returns the totals.
    public static func report(_ files: [String], print: (String) -> Void) throws -> RuntimeLineCount {
        var rows: [(name: String, lines: Int, code: Int)] = []
        for path in files {
            let counted = count(try String(contentsOfFile: path, encoding: .utf8))
            rows.append(((path as NSString).lastPathComponent, counted.lines, counted.code))
        }
        let total = rows.reduce(0) { $0 + $1.lines }
        let code = rows.reduce(0) { $0 + $1.code }
        let width = rows.map(\.name.count).max() ?? 0
        let row = { (name: String, lines: String, code: String) in
            "  \(NumberFormat.left(name, width))  \(NumberFormat.right(lines, 6))  \(NumberFormat.right(code, 6))"
        }
        print(row("file", "lines", "code"))
        for r in rows { print(row(r.name, String(r.lines), String(r.code))) }
        print(row("total", String(total), String(code)) + "   (code = not blank, not only a comment)")
        return RuntimeLineCount(lines: total, codeLines: code, files: rows.count)
    }
}
