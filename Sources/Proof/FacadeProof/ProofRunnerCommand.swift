// The executable `wireproof prove` builds in its scratch package for the user's schema: a one-line
// `main.swift` hands its catalog and arguments here. Prints progress on stderr, the table on stdout,
// writes the JSON summary, and exits 0 (proved), 1 (a check failed) or 2 (usage or setup error).

import Foundation
import ProtoSchema

public enum ProofRunnerCommand {
    public static let usage = """
        usage: <runner> --descriptor-set FILE.pb [--mutants N] [--seed N] [--json FILE]
        """

    /// `peer`, when given, is judged next to the facades on the same exemplars and mutants (PeerProof).
    public static func main(catalog: FacadeCatalog, peer: PeerCodec? = nil, arguments: [String]) -> Int32 {
        var descriptorSet: String?
        var json: String?
        var configuration = SchemaProofConfiguration()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { return fail("missing value for \(flag)\n\(usage)") }
            switch flag {
            case "--descriptor-set": descriptorSet = value
            case "--json": json = value
            case "--mutants":
                guard let n = Int(value), n >= 0 else { return fail("--mutants needs a non-negative integer") }
                configuration.mutantsPerType = n
            case "--seed":
                guard let n = UInt64(value) else { return fail("--seed needs a non-negative integer") }
                configuration.seed = n
            default: return fail("unknown option \(flag)\n\(usage)")
            }
        }
        guard let descriptorSet else { return fail(usage) }
        let schemas: SchemaSet
        do { schemas = try SchemaSet(contentsOf: descriptorSet) } catch { return fail("cannot load \(descriptorSet): \(error)") }

        let progress = progressReporter(printError)
        var report = SchemaProof.run(catalog: catalog, schemas: schemas, configuration: configuration, progress: progress)
        if let peer {
            report.peer = PeerProof.run(catalog: catalog, peer: peer, schemas: schemas, configuration: configuration, progress: progress)
        }
        for line in summary(of: report) { printOut(line) }
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do { try encoder.encode(report).write(to: URL(fileURLWithPath: json)) } catch { return fail("cannot write \(json): \(error)") }
        }
        return report.passed ? 0 : 1
    }

    /// The stderr line for count `done` of `total` in `step` (about ten a step), or nil.
    static func progressLine(_ step: String, done: Int, of total: Int) -> String? {
        ProgressCadence.shows(done: done, of: total, times: 10) ? "prove: \(step) \(done)/\(total)" : nil
    }

    /// The progress callback the proof steps report to: each `progressLine` goes to `emit` once,
    /// not again while the same line repeats (the peer's pass counts the same steps again).
    static func progressReporter(_ emit: @escaping (String) -> Void) -> (String, Int, Int) -> Void {
        var lastReported = ""
        return { step, done, total in
            guard let line = progressLine(step, done: done, of: total), line != lastReported else { return }
            lastReported = line
            emit(line)
        }
    }

    /// What the runner prints on stdout for `report`: the table, the deviation rows the schema is
    /// exposed to, then at most `shown` missing exemplars and `shown` failures, with a count of the
    /// failures left out.
    static func summary(of report: SchemaProofReport, shown: Int = 20) -> [String] {
        var lines = [report.table, "deviation rows of docs/deviations.md this schema is exposed to (elements; exemplars explained):"]
        for deviation in report.deviations where deviation.elements > 0 {
            let explained = deviation.explainedExemplars.map { ", \($0) exemplars explained" } ?? ""
            lines.append("  #\(deviation.row) \(deviation.summary): \(deviation.elements)\(explained)")
        }
        lines += report.missing.prefix(shown).map { "missing: oracle exemplar \($0) is neither generated nor excluded" }
        lines += report.failures.prefix(shown).map { "FAIL \($0)" }
        if report.failures.count > shown { lines.append("... and \(report.failures.count - shown) more failures") }
        if let peer = report.peer { lines += peer.summary(shown: shown) }
        return lines
    }

    private static func fail(_ text: String) -> Int32 { printError(text); return 2 }

    static func printOut(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    static func printError(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
}
