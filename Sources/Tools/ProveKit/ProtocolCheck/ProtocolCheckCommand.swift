// `wireproof check-protocol` (`make check-protocol`, a CI leg): the committed generated output is
// what `make proto` writes, no generated file is left untracked, and the nanopb rename list is
// complete (ProtocolCheck). Fresh output stays in .scratch/check-protocol for a diff.

import ProtoGenKit
import ArgumentParser
import Foundation

/// `wireproof check-protocol`.
public struct ProtocolCheckCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "check-protocol",
        abstract: "Regenerate a schema as make proto does into .scratch/check-protocol and fail if the committed output differs.",
        discussion: "Relative paths are relative to the Wireproof root. "
            + "Exit status: 0 everything matches, 1 a difference (each file listed), 2 a usage or setup error.")

    @Option(name: .customLong("proto-dir"), help: "The schema root (PROTO_DIR).")
    var protoDirectory = "Protos"

    @Option(name: .customLong("c-out"), help: "The committed C target (C_OUT).")
    var cOut = BundledSchemaLayout.cOut

    @Option(name: .customLong("c-module"), help: "The C module name (C_MODULE; default: the last component of --c-out).")
    var cModule: String?

    @Option(name: .customLong("swift-out"), help: "The committed facades (SWIFT_OUT).")
    var swiftOut = BundledSchemaLayout.facadeFolder

    @Option(name: .customLong("catalog-out"),
            help: "The committed catalog (CATALOG_OUT; empty: none; default: the bundled catalog for the bundled schema only).")
    var catalogOut: String?

    @Flag(name: .customLong("c-only"), help: "Compare the C target only (no facades, no catalog).")
    var cOnly = false

    @Option(name: .customLong("prune-sources"), parsing: .upToNextOption, help: "As make proto's PRUNE.")
    var pruneSources: [String] = []

    @Option(name: .customLong("options"), help: "As make proto's NANOPB_OPTIONS.")
    var optionsFile: String?

    @Flag(name: .customLong("limits-from-options"), help: "As make proto's LIMITS_FROM_OPTIONS=1.")
    var limitsFromOptions = false

    @Option(help: "Where the fresh output goes (default: .scratch/check-protocol under the Wireproof root).")
    var scratch: String?

    @Option(name: .customLong("cc"), help: "The C compiler for the rename list (default: $CC, else cc).")
    var compiler = ProcessInfo.processInfo.environment["CC"] ?? "cc"

    public init() {}

    var settings: ProtocolCheckSettings {
        var settings = ProtocolCheckSettings()
        settings.protoDirectory = protoDirectory
        settings.cOut = cOut
        settings.cModule = cModule
        settings.swiftOut = swiftOut
        settings.catalogOut = catalogOut
        settings.cOnly = cOnly
        settings.pruneSources = pruneSources
        settings.optionsFile = optionsFile
        settings.limitsFromOptions = limitsFromOptions
        return settings
    }

    public func run() throws {
        try run(out: ProveCommand.printOut, err: ProveCommand.printError)
    }

    /// The command with its printing passed in: progress and the passing verdict go to `out`, a
    /// failure's lines and a setup error to `err`. Throws `ExitCode(1)` when the check failed and
    /// `ExitCode(2)` when it could not be carried out; returns when everything matches.
    func run(out: @escaping (String) -> Void, err: (String) -> Void) throws {
        let outcome: ProtocolCheckOutcome
        do {
            outcome = try ProtocolCheck(root: try GenerationTools.wireproofRoot(), settings: settings, compiler: compiler, scratch: scratch,
                                        say: out).run()
        } catch {
            err("check-protocol: \(error)")
            throw ExitCode(2)
        }
        for line in Self.failureLines(outcome, settings: settings) { err(line) }
        guard outcome.passed else { throw ExitCode(1) }
        out("check-protocol: generated output matches (\(settings.folders.map(\.committed).joined(separator: ", ")))")
    }

    /// What a failed check prints, in order: the differing files with the fix and where the fresh
    /// output is, the untracked files, the stale rename list. Empty when it passed.
    static func failureLines(_ outcome: ProtocolCheckOutcome, settings: ProtocolCheckSettings) -> [String] {
        var lines: [String] = []
        if !outcome.differences.isEmpty {
            lines.append("check-protocol: generated output is out of date; run 'make proto' and commit the result:")
            lines += outcome.differences.map { "  \($0)" }
            let c = settings.folders[0]
            lines.append("  (fresh output kept in .scratch/check-protocol; e.g. diff -ru \(c.committed) .scratch/check-protocol/\(c.fresh))")
        }
        if !outcome.untracked.isEmpty {
            lines.append("check-protocol: generated files are not committed yet (git add them):")
            lines += outcome.untracked.map { "  untracked: \($0)" }
        }
        if !outcome.renameDifferences.isEmpty {
            lines.append("check-protocol: the nanopb rename list is stale; run '\(NanopbRenameList.writeCommand)':")
            lines += outcome.renameDifferences.map { "  \($0)" }
        }
        return lines
    }
}
