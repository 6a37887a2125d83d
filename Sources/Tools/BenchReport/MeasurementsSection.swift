// The section of docs/measurements.md that `make bench` owns: everything between the
// `<!-- bench:begin` and `<!-- bench:end -->` markers. This is its one writer; the prose around
// it is never touched.

import Foundation

public enum MeasurementsSection {
    public static let beginMarker = "<!-- bench:begin"
    public static let endMarker = "<!-- bench:end -->"

    /// The section's lines, markers included: the run's header and command, the summary table,
    /// the shipped layer's breakdown per configuration, the instruction table, peak memory.
    public static func lines(_ r: BenchResults, header: String, command: String) -> [String] {
        var section = ["\(beginMarker) (written by wirebench run, make bench; edit the reporter, not this section) -->",
                       "## Latest `make bench` figures", "", header, "", "```sh", command, "```", ""]
        section += SummaryTable.markdownLines(SummaryTable.rows(r))
        for (config, label) in SummaryTable.configurations {
            guard let s = r.sizes?[config], let packet = s.executables["SizePacket"], let pruned = s.executables["SizePacketPruned"],
                  let base = s.executables["SizeBaseline"] else { continue }
            section += ["", "Breakdown of the shipped layer (\(label); bytes of sized symbols in the unstripped "
                        + "executable, `nm -S`; \"not in a symbol\" is the rest of text+data: unwind tables, "
                        + "relocations, Swift metadata records, literals):", "",
                        "| Group | SizePacket (all types) | SizePacketPruned | SizeBaseline |", "|---|--:|--:|--:|"]
            let row = { (name: String, values: [Int]) in
                "| \(name) | " + values.map(NumberFormat.grouped).joined(separator: " | ") + " |"
            }
            for g in SymbolGroup.allCases { section.append(row(g.rawValue, [packet.group(g), pruned.group(g), base.group(g)])) }
            for g in SectionGroup.allCases {
                section.append(row("section: \(g.rawValue)", [packet.section(g), pruned.section(g), base.section(g)]))
            }
            section.append(row("**text+data**", [packet.alloc, pruned.alloc, base.alloc]))
        }
        if let ratios = r.ratios {
            section += ["", "Facades against plain nanopb C and Google's libprotobuf on the same bytes "
                        + "(make bench's ratio step; **bold**: facades / other, lower is better):", ""]
            section += RatioReport.tableLines(ratios)
            if let peak = ratios.peakMemory, !peak.isEmpty {
                section += ["", "Peak memory on the hostile inputs of docs/sanitizers.md (scripts/peak-memory.sh):", "", "```"]
                section += peak + ["```"]
            }
        }
        section.append(endMarker)
        return section
    }

    /// `document` with its bench section replaced by `section` (joined by line ends); appended
    /// after a blank line when the document has no well-ordered pair of markers.
    public static func splice(_ section: [String], into document: String) -> String {
        let block = section.joined(separator: "\n")
        if let begin = document.range(of: beginMarker), let end = document.range(of: endMarker),
           begin.lowerBound < end.lowerBound {
            return String(document[..<begin.lowerBound]) + block + String(document[end.upperBound...])
        }
        return document.isEmpty ? block + "\n" : document.trimmingSuffix("\n") + "\n\n" + block + "\n"
    }

    /// Rewrites the section of the file at `path` (created when missing).
    public static func write(_ section: [String], to path: String) throws {
        let document = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        try splice(section, into: document).write(toFile: path, atomically: true, encoding: .utf8)
    }
}
