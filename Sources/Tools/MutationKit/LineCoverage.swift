// Mutants on lines no test executes: a mutant there survives whatever the tests assert, so these
// are the first gaps to close before a sample is judged (`make coverage`, docs/mutation.md).

/// Execution counts per line, from an lcov trace of the whole test suite (`llvm-cov export
/// -format=lcov`). Paths are kept relative to `root`; a file traced by several records (one per
/// binary that compiled it) counts a line as executed if any record does.
public struct LineCoverage: Sendable {
    /// Count by line (1-based), by path relative to the root.
    public private(set) var counts: [String: [Int: Int]] = [:]

    /// Reads lcov `SF:` and `DA:line,count` records; every other record type is ignored, and a
    /// `DA:` line outside a file record or with non-numeric fields is skipped.
    public init(lcov: String, root: String) {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        var file: String?
        for raw in lcov.split(separator: "\n", omittingEmptySubsequences: true) {
            if raw.hasPrefix("SF:") {
                let path = String(raw.dropFirst(3))
                file = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
            } else if raw.hasPrefix("DA:"), let file {
                let fields = raw.dropFirst(3).split(separator: ",")
                guard fields.count >= 2, let line = Int(fields[0]), let count = Int(fields[1]) else { continue }
                counts[file, default: [:]][line] = max(counts[file]?[line] ?? 0, count)
            } else if raw == "end_of_record" {
                file = nil
            }
        }
    }

    /// Whether any test executed `line` of `path`; nil when the trace has no count for it (a file
    /// not compiled into the tests, a script, a line that is not code).
    public func executed(_ path: String, line: Int) -> Bool? {
        counts[path]?[line].map { $0 > 0 }
    }
}

/// For each layer, how many of its mutants the trace can place and how many of those sit on a line
/// no test executed; and the files holding the most such mutants.
public struct CoverageGaps: Sendable {
    public struct LayerRow: Sendable, Equatable {
        public var layer: String
        public var traced = 0
        public var unexecuted = 0
        public var untraced = 0
    }

    public private(set) var layers: [LayerRow] = []
    /// (layer, path, mutants on unexecuted lines), most first, then by path.
    public private(set) var files: [(layer: String, path: String, unexecuted: Int)] = []

    public init(mutants: [Mutant], coverage: LineCoverage) {
        var rows: [String: LayerRow] = [:], order: [String] = []
        var perFile: [String: (layer: String, count: Int)] = [:]
        for mutant in mutants {
            let name = mutant.layer.name
            if rows[name] == nil { rows[name] = LayerRow(layer: name); order.append(name) }
            switch coverage.executed(mutant.path, line: mutant.line) {
            case nil: rows[name]!.untraced += 1
            case true?: rows[name]!.traced += 1
            case false?:
                rows[name]!.traced += 1
                rows[name]!.unexecuted += 1
                perFile[mutant.path, default: (name, 0)].count += 1
            }
        }
        layers = order.map { rows[$0]! }
        files = perFile.map { (layer: $0.value.layer, path: $0.key, unexecuted: $0.value.count) }
            .sorted { $0.unexecuted != $1.unexecuted ? $0.unexecuted > $1.unexecuted : $0.path < $1.path }
    }

    /// The table `wiremutate coverage` prints: one row per layer and a total, then the first
    /// `fileLimit` files.
    public func text(fileLimit: Int) -> String {
        func percent(_ part: Int, _ whole: Int) -> String { whole == 0 ? "-" : "\(part * 100 / whole) %" }
        var lines = ["layer            traced  unexecuted  share   untraced (no line data: scripts, C, headers)"]
        for row in layers + [LayerRow(layer: "all", traced: layers.map(\.traced).reduce(0, +),
                                      unexecuted: layers.map(\.unexecuted).reduce(0, +), untraced: layers.map(\.untraced).reduce(0, +))] {
            lines.append(row.layer.padding(toLength: 16, withPad: " ", startingAt: 0)
                         + String(row.traced).leftPadded(7) + String(row.unexecuted).leftPadded(12)
                         + percent(row.unexecuted, row.traced).leftPadded(8) + String(row.untraced).leftPadded(11))
        }
        if !files.isEmpty && fileLimit > 0 {
            lines.append("")
            lines.append("files with the most mutants on unexecuted lines:")
            for file in files.prefix(fileLimit) { lines.append(String(file.unexecuted).leftPadded(6) + "  \(file.layer)  \(file.path)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
