// One line of a rule file (scripts/mutation/*.rules): `REGEX ==> REPLACEMENT`, where REPLACEMENT
// is text with Python-style group references (`\1`, `\g<1>`), or one of the two directives
// DO_NOT_MUTATE (a line the regex matches anywhere is never mutated) and SKIP_MUTATING_REST (no
// mutation starts at or after the regex's first match on a line, e.g. a comment).

import Foundation

/// Why a rule file could not be read: each names the file and the line.
public enum RuleFileError: Error, CustomStringConvertible, Equatable {
    /// The file could not be read at all.
    case unreadable(path: String)
    /// The left-hand side is not a regular expression ICU accepts.
    case badPattern(path: String, line: Int, pattern: String)
    /// The replacement refers to a group the pattern does not have, or uses an escape Python rejects.
    case badReplacement(path: String, line: Int, replacement: String)

    public var description: String {
        switch self {
        case .unreadable(let path): "cannot read the rule file \(path)"
        case .badPattern(let path, let line, let pattern): "\(path):\(line): not a regular expression: \(pattern)"
        case .badReplacement(let path, let line, let text): "\(path):\(line): bad replacement: \(text)"
        }
    }
}

/// A piece of a replacement: literal text, or the text a numbered group matched (empty when the
/// group took no part in the match, as Python's `re.sub` has it).
enum ReplacementPiece: Equatable {
    case text(String)
    case group(Int)
}

/// A parsed rule. `kind` says whether it mutates or is a directive.
struct MutationRule {
    enum Kind: Equatable {
        case replace([ReplacementPiece])
        case doNotMutate
        case skipRest
    }

    let pattern: NSRegularExpression
    let kind: Kind
    /// The rule's line as written, and where: reported with each mutant.
    let source: String
    let location: String

    /// The rules of the file's text; `path` only names the file in errors. Comment lines (`#` first),
    /// blank lines and lines without ` ==>` are not rules. The separator is the first ` ==> `, or,
    /// for an empty replacement, a trailing ` ==>`.
    static func parse(_ text: String, path: String) throws(RuleFileError) -> [MutationRule] {
        var rules: [MutationRule] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw.hasSuffix("\r") ? raw.dropLast() : raw)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let left: String, right: String
            if let separator = line.range(of: " ==> ") {
                left = String(line[..<separator.lowerBound])
                let rest = line[separator.upperBound...]
                right = String(rest.range(of: " ==> ").map { rest[..<$0.lowerBound] } ?? rest)
            } else if let separator = line.range(of: " ==>") {
                left = String(line[..<separator.lowerBound])
                let rest = line[separator.upperBound...]
                right = String(rest.range(of: " ==>").map { rest[..<$0.lowerBound] } ?? rest)
            } else {
                continue
            }
            let number = index + 1
            guard let pattern = try? NSRegularExpression(pattern: icuPattern(left)) else {
                throw .badPattern(path: path, line: number, pattern: left)
            }
            let kind: Kind
            switch right {
            case "DO_NOT_MUTATE": kind = .doNotMutate
            case "SKIP_MUTATING_REST": kind = .skipRest
            default:
                guard let pieces = replacementPieces(right), pieces.allSatisfy({ piece in
                    if case .group(let n) = piece { return n <= pattern.numberOfCaptureGroups }
                    return true
                }) else { throw .badReplacement(path: path, line: number, replacement: right) }
                kind = .replace(pieces)
            }
            rules.append(MutationRule(pattern: pattern, kind: kind, source: line, location: "\(path):\(number)"))
        }
        return rules
    }

    /// Python's and ICU's syntax differ where a character class starts with `]` (`[]x]`, `[^]x]`):
    /// Python reads that `]` as a member, ICU as the end of an empty class. It is escaped here.
    static func icuPattern(_ python: String) -> String {
        var out = "", chars = Array(python), i = 0, inClass = false
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count {
                out += String(chars[i...i + 1]); i += 2; continue
            }
            if !inClass && c == "[" {
                inClass = true
                out.append(c); i += 1
                if i < chars.count && chars[i] == "^" { out.append("^"); i += 1 }
                if i < chars.count && chars[i] == "]" { out += "\\]"; i += 1 }
                continue
            }
            if inClass && c == "]" { inClass = false }
            out.append(c); i += 1
        }
        return out
    }

    /// A Python `re.sub` template as pieces: `\N` and `\NN` (one or two digits), `\g<N>`, `\\`,
    /// `\n`, `\t`; a backslash before any other non-letter stays as written. Nil for what Python
    /// rejects (a backslash before another ASCII letter, a named or malformed `\g<...>`).
    static func replacementPieces(_ template: String) -> [ReplacementPiece]? {
        var pieces: [ReplacementPiece] = [], literal = ""
        let chars = Array(template)
        var i = 0
        func flush() { if !literal.isEmpty { pieces.append(.text(literal)); literal = "" } }
        while i < chars.count {
            guard chars[i] == "\\", i + 1 < chars.count else { literal.append(chars[i]); i += 1; continue }
            let next = chars[i + 1]
            if let digit = next.wholeNumberValue, next.isASCII {
                var number = digit, end = i + 2
                if end < chars.count, let second = chars[end].wholeNumberValue, chars[end].isASCII {
                    number = number * 10 + second; end += 1
                }
                flush(); pieces.append(.group(number)); i = end
            } else if next == "g" {
                guard i + 2 < chars.count, chars[i + 2] == "<", let close = chars[(i + 3)...].firstIndex(of: ">"),
                      let number = Int(String(chars[(i + 3)..<close])) else { return nil }
                flush(); pieces.append(.group(number)); i = close + 1
            } else if next == "\\" || next == "n" || next == "t" {
                literal.append(next == "n" ? "\n" : next == "t" ? "\t" : "\\"); i += 2
            } else if next.isASCII && next.isLetter {
                return nil
            } else {
                literal += "\\\(next)"; i += 2
            }
        }
        flush()
        return pieces
    }

    /// The replacement text for `match` in `line` (a `.replace` rule).
    func expand(_ pieces: [ReplacementPiece], _ match: NSTextCheckingResult, in line: NSString) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case .group(let n):
                let range = match.range(at: n)
                return range.location == NSNotFound ? "" : line.substring(with: range)
            }
        }.joined()
    }
}
