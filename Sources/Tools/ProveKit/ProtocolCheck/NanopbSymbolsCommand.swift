// `wireproof nanopb-symbols --write|--check` (`make check-nanopb-symbols`, and part of
// `make check-protocol`): rewrite Sources/Shipped/CNanopb/include/wireproof_pb_rename.h from the
// unpacked nanopb source, or fail listing how the committed header differs. Run --write after every
// nanopb upgrade; CNanopbTests fails if any built object still exports a pb_* symbol.

import ProtoGenKit
import ArgumentParser
import Foundation

/// `wireproof nanopb-symbols`.
public struct NanopbSymbolsCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "nanopb-symbols",
        abstract: "Write or check the pb_* -> wp_pb_* rename header against nanopb's compiled runtime.",
        discussion: "Exit status: 0 written or up to date, 1 the header is stale, 2 a usage or setup error.")

    @Flag(name: .customLong("write"), help: "Rewrite the header when its bytes change.")
    var write = false

    @Flag(name: .customLong("check"), help: "Fail, listing the difference, when the header is stale.")
    var check = false

    @Option(name: .customLong("cc"), help: "The C compiler, a name on PATH or a path (default: $CC, else cc).")
    var compiler = ProcessInfo.processInfo.environment["CC"] ?? "cc"

    public init() {}

    public func validate() throws {
        if write == check { throw ValidationError("give exactly one of --write, --check") }
    }

    public func run() throws {
        try run(root: nil, out: ProveCommand.printOut, err: ProveCommand.printError)
    }

    /// The command on the Wireproof tree at `root` (nil: the one this tool belongs to), progress and
    /// verdicts to `out`, a stale list and setup errors to `err`. Throws `ExitCode(1)` when --check
    /// finds the header stale and `ExitCode(2)` when the list cannot be collected or written.
    func run(root: String?, out: (String) -> Void, err: (String) -> Void) throws {
        do {
            let inputs = NanopbRuntimeSymbols(root: try root ?? GenerationTools.wireproofRoot(), compiler: compiler)
            if write {
                try Self.write(inputs, say: out)
                return
            }
            let differences = try Self.check(inputs, say: out)
            guard differences.isEmpty else {
                Self.reportStale(inputs, differences, err: err)
                throw ExitCode(1)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            err("nanopb-symbols: \(error)")
            throw ExitCode(2)
        }
    }

    /// How the committed header differs from a fresh list (empty: byte for byte the same); prints
    /// the verdict when it holds.
    static func check(_ inputs: NanopbRuntimeSymbols, say: (String) -> Void) throws(ProtocolCheckError) -> [String] {
        try check(try inputs.collect(say: say), against: inputs.renameHeader, say: say)
    }

    /// How the header at `header` differs from `list` (empty: byte for byte the same); prints the
    /// verdict when it holds.
    static func check(_ list: NanopbRenameList, against header: String, say: (String) -> Void) throws(ProtocolCheckError) -> [String] {
        let differences = list.differences(fromCommitted: try NanopbRuntimeSymbols.read(header))
        if differences.isEmpty { say("nanopb-symbols: rename list complete (\(list.symbols.count) symbols, \(list.version))") }
        return differences
    }

    /// Prints that the header is stale, each difference and the command that fixes it.
    static func reportStale(_ inputs: NanopbRuntimeSymbols, _ differences: [String], err: (String) -> Void) {
        err("nanopb-symbols: \(inputs.renameHeader) is stale; run '\(NanopbRenameList.writeCommand)':")
        for line in differences { err("  " + line) }
    }

    /// Rewrites the header unless its bytes are already the fresh list's.
    static func write(_ inputs: NanopbRuntimeSymbols, say: (String) -> Void) throws(ProtocolCheckError) {
        try write(try inputs.collect(say: say), to: inputs.renameHeader, say: say)
    }

    /// Writes `list`'s header text to `header` unless the file already holds those bytes; says which.
    static func write(_ list: NanopbRenameList, to header: String, say: (String) -> Void) throws(ProtocolCheckError) {
        let text = list.headerText
        if FileManager.default.contents(atPath: header) == Data(text.utf8) {
            say("nanopb-symbols: \(header) is up to date (\(list.symbols.count) symbols)")
            return
        }
        guard FileManager.default.createFile(atPath: header, contents: Data(text.utf8)) else {
            throw .io(path: header, reason: "cannot write")
        }
        say("nanopb-symbols: wrote \(header) (\(list.symbols.count) symbols)")
    }
}
