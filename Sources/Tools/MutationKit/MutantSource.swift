// Every mutant of a layer's files: each file's language picks its rule file, prose is masked, the
// rules applied, and the mask put back.

import Foundation

public struct MutantSource {
    let root: String
    /// Rule sets by rule file name (`swift`, `c`, `sh`, `py`), read once.
    private var ruleSets: [String: RuleSet] = [:]

    public init(root: String) { self.root = root }

    /// Every mutant of every file of `layer`, in file and line order.
    public mutating func mutants(of layer: Layer) throws -> [Mutant] {
        var out: [Mutant] = []
        for path in LayerCoverage.files(of: layer, root: root) {
            guard let language = Layer.ruleFile(for: path) else { continue }
            if ruleSets[language] == nil {
                ruleSets[language] = try RuleSet(contentsOf: "\(root)/scripts/mutation/\(language).rules")
            }
            guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else {
                throw RuleFileError.unreadable(path: path)
            }
            out += Self.mutants(layer: layer, path: path, source: SourceLines.split(text), rules: ruleSets[language]!)
        }
        return out
    }

    /// The mutants of one file's lines under `rules`; a mutant whose line differs from the
    /// original only in surrounding whitespace is dropped.
    public static func mutants(layer: Layer, path: String, source: [String], rules: RuleSet) -> [Mutant] {
        rules.mutations(of: ProseMask.masked(path: path, source)).compactMap { found in
            let original = source[found.line - 1]
            let mutated = ProseMask.unmasked(found.mutated)
            let blank = CharacterSet.whitespacesAndNewlines
            if mutated.trimmingCharacters(in: blank) == original.trimmingCharacters(in: blank) { return nil }
            return Mutant(layer: layer, path: path, line: found.line, original: original, mutated: mutated, rule: found.rule)
        }
    }
}

/// A file's lines as Python's `readlines` gives them: each with its newline, the last without
/// one when the file does not end in a newline.
public enum SourceLines {
    public static func split(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n").map { $0 + "\n" }
        if let last = lines.last {
            lines.removeLast()
            if last != "\n" { lines.append(String(last.dropLast())) }
        }
        return lines
    }
}
