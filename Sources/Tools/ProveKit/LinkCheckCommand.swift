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
        let root = try GenerationTools.wireproofRoot()
        let package = URL(fileURLWithPath: scratch ?? root + "/.scratch/linked").standardizedFileURL.path
        do {
            try LinkedSchemasCheck(root: root, package: package).run { ProveCommand.printOut($0) }
        } catch {
            ProveCommand.printError("link-check: \(error)")
            throw ExitCode(1)
        }
    }
}
