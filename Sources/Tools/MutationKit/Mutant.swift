// A mutant: one line of one file replaced, and the seeded order in which a sample takes mutants.

import ProcessSupport

/// One line of a file of a layer replaced by a mutated line.
public struct Mutant: Sendable {
    public let layer: Layer
    /// Relative to the repository root.
    public let path: String
    /// 1-based.
    public let line: Int
    /// The original and mutated line, each with its newline.
    public let original: String
    public let mutated: String
    public let rule: String

    /// `path:line:hash`, the hash (10 hex digits of SHA-1) covering the original and mutated line:
    /// stable across runs while the line's text stays.
    public var ident: String {
        "\(path):\(line):\(String(SHA1.hex(original + "\0" + mutated).prefix(10)))"
    }

    /// The id without its line number: what equivalent.txt and --resume match on, so a mutant
    /// keeps its verdict when code above it moves.
    public var key: String { Mutant.key(of: ident) }

    /// `path:hash` of an id `path:line:hash`.
    public static func key(of ident: String) -> String {
        let parts = ident.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return ident }
        return "\(parts[0]):\(parts[2])"
    }

    /// A unified diff of the one line, its hunk header naming the line.
    public var diff: String {
        "--- a/\(path)\n+++ b/\(path)\n@@ line \(line) @@\n-\(original)+\(mutated)"
    }
}

public enum Sampling {
    /// `count` mutants spread round-robin over the layers (in the order given). Within a layer the
    /// order is SHA-1 of the seed, the file and the original and mutated line (not the line number),
    /// so an edit elsewhere does not change which mutants a seed picks: only new or changed code
    /// brings new ones. Equal keys (the same line text twice in a file) take the later line first.
    public static func pick(_ byLayer: [[Mutant]], count: Int, seed: Int) -> [Mutant] {
        let queues: [[Mutant]] = byLayer.map { mutants in
            let keyed = mutants.enumerated().map { (index, m) -> (key: String, index: Int, mutant: Mutant) in
                (SHA1.hex("\(seed)\0\(m.path)\0\(m.original)\0\(m.mutated)"), index, m)
            }
            return keyed.sorted { $0.key != $1.key ? $0.key < $1.key : $0.index > $1.index }.map(\.mutant)
        }
        var next = [Int](repeating: 0, count: queues.count)
        var picked: [Mutant] = []
        while picked.count < count, queues.indices.contains(where: { next[$0] < queues[$0].count }) {
            for q in queues.indices where next[q] < queues[q].count && picked.count < count {
                picked.append(queues[q][next[q]])
                next[q] += 1
            }
        }
        return picked
    }
}
