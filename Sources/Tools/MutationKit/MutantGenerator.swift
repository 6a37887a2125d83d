// Applies a rule set to the lines of one file: every `.replace` rule at every position where its
// pattern matches, one mutant per (line, rule, match). The line-level skipping follows the engine
// the rule files were first written for, so they keep their meaning:
//   - blank lines are not mutated, nor any line holding `/*` (C block comments: the lines up to
//     the one holding `*/` are skipped too), nor lines inside `{-` ... `-}`;
//   - a line a DO_NOT_MUTATE pattern matches anywhere is not mutated;
//   - no match may start at or after the first match of any SKIP_MUTATING_REST pattern;
//   - a mutant that only changes what is inside string literals is dropped (below), and so is a
//     mutant already produced for that line by an earlier rule.

import Foundation

/// A mutated line: 1-based line number, the whole new line (ending in a newline), and the rule.
public struct LineMutation: Equatable, Sendable {
    public let line: Int
    public let mutated: String
    public let rule: String
}

/// A set of rules read from one rule file.
public struct RuleSet {
    let rules: [MutationRule]

    public init(text: String, path: String) throws(RuleFileError) {
        rules = try MutationRule.parse(text, path: path)
    }

    public init(contentsOf path: String) throws(RuleFileError) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw .unreadable(path: path) }
        try self.init(text: text, path: path)
    }

    /// Every mutation of `lines` (each with its newline, as read), in line, rule and position order.
    public func mutations(of lines: [String]) -> [LineMutation] {
        var out: [LineMutation] = []
        var inBlockComment = false, inDashComment = false
        for (index, line) in lines.enumerated() {
            if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { continue }
            if inBlockComment { if line.contains("*/") { inBlockComment = false }; continue }
            if inDashComment { if line.contains("-}") { inDashComment = false }; continue }
            if let open = line.range(of: "/*") {
                let close = line.range(of: "*/")
                if close == nil || open.lowerBound > close!.lowerBound { inBlockComment = true }
                continue
            }
            if let open = line.range(of: "{-") {
                let close = line.range(of: "-}")
                if close == nil || open.lowerBound > close!.lowerBound { inDashComment = true }
                continue
            }
            out += mutations(ofLine: line, number: index + 1)
        }
        return out
    }

    /// The mutations of one line that the directives allow.
    func mutations(ofLine line: String, number: Int) -> [LineMutation] {
        let text = line as NSString
        let whole = NSRange(location: 0, length: text.length)
        var skipFrom = text.length
        for rule in rules {
            switch rule.kind {
            case .doNotMutate:
                if rule.pattern.firstMatch(in: line, range: whole) != nil { return [] }
            case .skipRest:
                if let match = rule.pattern.firstMatch(in: line, range: whole) {
                    skipFrom = min(skipFrom, match.range.location)
                }
            case .replace: continue
            }
        }
        var out: [LineMutation] = [], produced: Set<String> = []
        // Transparent, non-anchoring bounds: a search from `start` still sees the text before it
        // (for `\b` and look-behind), and `^` matches only at the real start of the line.
        let options: NSRegularExpression.MatchingOptions = [.withTransparentBounds, .withoutAnchoringBounds]
        for rule in rules {
            guard case .replace(let pieces) = rule.kind else { continue }
            var start = 0
            while start <= text.length,
                  let match = rule.pattern.firstMatch(in: line, options: options,
                                                      range: NSRange(location: start, length: text.length - start)),
                  match.range.location < skipFrom {
                let before = text.substring(to: match.range.location)
                let after = text.substring(from: match.range.location + match.range.length)
                var mutated = before + rule.expand(pieces, match, in: text) + after
                if !mutated.hasSuffix("\n") { mutated += "\n" }
                if mutated != line, !StringLiterals.onlyLiteralsDiffer(line, mutated), produced.insert(mutated).inserted {
                    out.append(LineMutation(line: number, mutated: mutated, rule: rule.source))
                }
                start = match.range.location + 1
            }
        }
        return out
    }
}

/// "A mutant that only changes a string literal is not a fault": a message's wording is not what
/// the suites judge. Two lines count as differing only in literals when they are equal once the
/// content of every double-quoted literal is replaced by one mark saying whether it holds two or
/// more characters (so emptying a message, or shrinking it to one character, still counts).
enum StringLiterals {
    static func onlyLiteralsDiffer(_ original: String, _ mutated: String) -> Bool {
        skeleton(original) == skeleton(mutated)
    }

    /// `line` with each literal's content replaced by its mark. Quotes are not told apart from
    /// escaped ones: a line is a line, not parsed code.
    static func skeleton(_ line: String) -> String {
        var out = "", inside = false, length = 0
        for scalar in line.unicodeScalars {
            if !inside {
                out.unicodeScalars.append(scalar)
                if scalar == "\"" { inside = true; length = 0 }
            } else {
                length += 1
                if scalar == "\"" {
                    out += length > 2 ? "True" : "False"
                    out.unicodeScalars.append(scalar)
                    inside = false
                }
            }
        }
        return out
    }
}
