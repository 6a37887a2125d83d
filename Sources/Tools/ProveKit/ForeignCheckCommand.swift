// `wireproof check-foreign` (`make check-foreign`, a CI leg): `wireproof prove` on public schemas
// this project never wrote, the refusals and the device crash they must meet, and two schemas
// linked into one program (ForeignCheck). `--list` prints the corpus folders, laying them out first.
// Results: .scratch/foreign/results/<schema>.{log,json} (each prove's output and its --json summary).

import ProtoGenKit
import ArgumentParser
import Foundation

/// `wireproof check-foreign`.
public struct ForeignCheckCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "check-foreign",
        abstract: "wireproof prove on public schemas the project never wrote, the expected refusals and crash, and a linked program.",
        discussion: "Exit status: 0 everything held, 1 a proof or an expectation failed, 2 a usage or setup error.")

    @Option(name: .customLong("mutants"), help: "Seeded decode mutants per message type (as wireproof prove).")
    var mutants: UInt = 64

    @Option(name: .customLong("only"),
            help: "Only this schema (a folder name such as nanopb-map; repeatable); skips the refusals and the link check.")
    var only: [String] = []

    @Flag(name: .customLong("list"), help: "Print the corpus folders, one a line (laid out under .deps/foreign first), and stop.")
    var list = false

    public init() {}

    public func run() throws {
        let failures: [String]
        do {
            let root = try GenerationTools.wireproofRoot()
            if list {
                for folder in try ForeignCorpus(root: root).layOutAndList(say: ProveCommand.printError) { ProveCommand.printOut(folder) }
                return
            }
            let wireproof = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            failures = try ForeignCheck(root: root, wireproof: wireproof, mutants: Int(clamping: mutants), only: only,
                                        say: ProveCommand.printOut).run()
        } catch {
            ProveCommand.printError("check-foreign: \(error)")
            throw ExitCode(2)
        }
        guard failures.isEmpty else {
            ProveCommand.printError("check-foreign: FAILED")
            for failure in failures { ProveCommand.printError("  " + failure) }
            throw ExitCode(1)
        }
    }
}
