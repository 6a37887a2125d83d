// `wireproof`: the proof's command. Each subcommand lives beside its work: `prove` (ProveKit),
// `oracle-check` (OracleCheck's report), `generate` (protogen generate plus the catalog), `catalog`
// (CatalogGenerator), `size-probe`, `link-check` (two schemas in one program), `scratch-manifest` and
// `scratch-package` (for the bench and scratch packages), `swiftprotobuf-peer` (the SwiftProtobuf peer package),
// `check-foreign` (the proof on public schemas, `make check-foreign`), `fuzz` (the libFuzzer workflows, `make fuzz*`),
// `conformance` (Google's conformance suite, `make conformance`), `check-protocol` and `nanopb-symbols`
// (committed generated output and the nanopb rename list, ProtocolCheck/).

import ArgumentParser
import CatalogGenerator
import CommandLineSupport

/// The root command; `main` is what the executable calls.
public struct WireproofCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "wireproof",
        abstract: "Prove nanopb-backed Swift facades against an independent protobuf codec.",
        subcommands: [ProveCommand.self, OracleCheckCommand.self, GenerateWithCatalogCommand.self, CatalogCommand.self, SizeProbeCommand.self,
                      ScratchManifestCommand.self, ScratchPackageCommand.self, LinkCheckCommand.self, SwiftProtobufPeerCommand.self, ForeignCheckCommand.self,
                      FuzzCommand.self, ConformanceCommand.self, ProtocolCheckCommand.self, NanopbSymbolsCommand.self])

    public init() {}

    /// Runs a command line (without the program name); returns the process exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        await CommandExit.run(Self.self, arguments)
    }
}
