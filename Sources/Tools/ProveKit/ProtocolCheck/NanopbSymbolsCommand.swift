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
        do {
            let inputs = NanopbRuntimeSymbols(root: try GenerationTools.wireproofRoot(), compiler: compiler)
            if write {
                try Self.write(inputs, say: ProveCommand.printOut)
                return
            }
            let differences = try Self.check(inputs, say: ProveCommand.printOut)
            guard differences.isEmpty else {
                Self.reportStale(inputs, differences)
                throw ExitCode(1)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            ProveCommand.printError("nanopb-symbols: \(error)")
            throw ExitCode(2)
        }
    }

    /// How the committed header differs from a fresh list (empty: byte for byte the same); prints
    /// the verdict when it holds.
    static func check(_ inputs: NanopbRuntimeSymbols, say: (String) -> Void) throws(ProtocolCheckError) -> [String] {
        let list = try inputs.collect(say: say)
        let differences = list.differences(fromCommitted: try NanopbRuntimeSymbols.read(inputs.renameHeader))
        if differences.isEmpty { say("nanopb-symbols: rename list complete (\(list.symbols.count) symbols, \(list.version))") }
        return differences
    }

    /// Prints that the header is stale, each difference and the command that fixes it.
    static func reportStale(_ inputs: NanopbRuntimeSymbols, _ differences: [String]) {
        ProveCommand.printError("nanopb-symbols: \(inputs.renameHeader) is stale; run '\(NanopbRenameList.writeCommand)':")
        for line in differences { ProveCommand.printError("  " + line) }
    }

    /// Rewrites the header unless its bytes are already the fresh list's.
    static func write(_ inputs: NanopbRuntimeSymbols, say: (String) -> Void) throws(ProtocolCheckError) {
        let list = try inputs.collect(say: say)
        let text = list.headerText
        if FileManager.default.contents(atPath: inputs.renameHeader) == Data(text.utf8) {
            say("nanopb-symbols: \(inputs.renameHeader) is up to date (\(list.symbols.count) symbols)")
            return
        }
        guard FileManager.default.createFile(atPath: inputs.renameHeader, contents: Data(text.utf8)) else {
            throw .io(path: inputs.renameHeader, reason: "cannot write")
        }
        say("nanopb-symbols: wrote \(inputs.renameHeader) (\(list.symbols.count) symbols)")
    }
}
