// The executable `wireproof prove` builds beside the proof runner when the schema sets nanopb
// options: a one-line `main.swift` hands its catalog and arguments here. Prints the device table,
// what the app should know (refusals by option, truncations) and every failure; writes the JSON
// report; exits 0 (the device agrees), 1 (a check failed) or 2 (usage or setup error).

import FacadeProof
import Foundation
import NanopbDeviceLayout
import ProtoSchema

public enum DeviceProofCommand {
    public static let usage = """
        usage: <device runner> --descriptor-set FILE.pb --layout layout.json --driver EXE --work DIR [--json FILE]
                               [--mutants N] [--seed N]
        """

    /// `peer`, when given, also sends its re-encoding of every exemplar to the device.
    public static func main(catalog: FacadeCatalog, peer: PeerCodec? = nil, arguments: [String]) -> Int32 {
        var values: [String: String] = [:]
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard ["--descriptor-set", "--layout", "--driver", "--work", "--json", "--mutants", "--seed"].contains(flag), let value = rest.popFirst() else {
                return fail("unknown option or missing value: \(flag)\n\(usage)")
            }
            values[flag] = value
        }
        guard let set = values["--descriptor-set"], let layoutPath = values["--layout"], let driver = values["--driver"],
              let work = values["--work"] else { return fail(usage) }
        guard let mutants = Int(values["--mutants"] ?? "0"), mutants >= 0,
              let seed = UInt64(values["--seed"] ?? "\(DecodeMutationCheck.defaultSeed)") else { return fail(usage) }
        let report: DeviceProofReport
        do {
            let schemas = try SchemaSet(contentsOf: set)
            let layout = try DeviceLayout(contentsOf: layoutPath)
            report = try DeviceProof.run(catalog: catalog, schemas: schemas, layout: layout,
                                         driver: DeviceDriver(executable: driver, workDirectory: work), peer: peer,
                                         mutants: mutants, seed: seed)
        } catch {
            return fail("device: \(error)")
        }
        for line in summary(of: report) { print(line) }
        if let json = values["--json"] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do { try encoder.encode(report).write(to: URL(fileURLWithPath: json)) } catch { return fail("cannot write \(json): \(error)") }
        }
        return report.passed ? 0 : 1
    }

    /// The table, then at most `shown` findings and `shown` failures.
    static func summary(of report: DeviceProofReport, shown: Int = 20) -> [String] {
        var lines = [report.table]
        lines += report.findings.prefix(shown).map { "device: \($0)" }
        if report.findings.count > shown { lines.append("device: ... and \(report.findings.count - shown) more findings") }
        lines += report.skipped.prefix(shown).map { "device: no limit exemplars for \($0)" }
        lines += report.failures.prefix(shown).map { "FAIL device: \($0)" }
        if report.failures.count > shown { lines.append("... and \(report.failures.count - shown) more device failures") }
        return lines
    }

    private static func fail(_ text: String) -> Int32 {
        FileHandle.standardError.write(Data((text + "\n").utf8))
        return 2
    }
}

extension DeviceProofReport {
    /// The device's part of `wireproof prove`'s verdict line.
    public var verdict: String {
        "device \(total.accepted) accepted / \(total.refusedByOption) refused by option / \(total.truncated) truncated of \(total.exemplars) exemplars, "
            + "limits \(total.limitAtAccepted)/\(total.limitAt) at accepted, \(total.limitPastRefused)/\(total.limitPast) past refused"
            + (total.appChecked > 0 ? ", app's limit check flagged \(total.appFlagsPast)/\(total.limitPast) past" : "")
            + (peer.map { ", \($0)'s encodings \(total.peerAccepted) accepted / \(total.peerRefusedByOption) refused by option of \(total.peerExemplars)" } ?? "")
            + " (\(failures.count) failed)"
    }
}
