// `wireproof link-check`: LinkedSchemasCheck for `make check-foreign` (two schemas sharing imports
// linked into one program, its bytes compared with protoc --encode).

import ProtoGenKit
import ArgumentParser
import Foundation

/// `wireproof link-check`.
public struct LinkCheckCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "link-check",
        abstract: "Link Tests/Schemas/linked's two schemas, which share imports, into one program and compare its bytes with protoc --encode.",
        discussion: "Exit status: 0 the program links and its bytes equal protoc's, 1 otherwise.")

    @Option(name: .customLong("scratch"), help: "The scratch package (default .scratch/linked in the Wireproof tree).")
    var scratch: String?

    public init() {}

    public func run() throws {
        try run(out: ProveCommand.printOut, err: ProveCommand.printError)
    }

    /// The check with progress to `out` and why it failed to `err`; any failure is `ExitCode(1)`.
    func run(out: (String) -> Void, err: (String) -> Void) throws {
        let root = try GenerationTools.wireproofRoot()
        let package = URL(fileURLWithPath: scratch ?? root + "/.scratch/linked").standardizedFileURL.path
        do {
            try LinkedSchemasCheck(root: root, package: package).run(say: out)
        } catch {
            err("link-check: \(error)")
            throw ExitCode(1)
        }
    }
}
