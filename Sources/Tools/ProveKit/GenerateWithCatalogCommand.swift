// `wireproof generate`: `protogen generate` plus, when asked or for the bundled schema, the schema's
// catalog module from the same plan in the same process (what `make proto` runs, and the proof for
// any tree).

import ArgumentParser
import CatalogGenerator
import Foundation
import ProtoGenKit

/// `wireproof generate`.
public struct GenerateWithCatalogCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "protogen generate, plus the schema's catalog module for the proof.")

    @OptionGroup var options: GenerateOptions

    @Option(name: .customLong("catalog-out"),
            help: "The catalog module's folder (needs facades for every type; empty: none; default: the bundled catalog for the bundled schema only).")
    var catalogOut: String?

    @Option(name: .customLong("proto-dir-hint"),
            help: "The schema folder relative to the package root, recorded for the tests (default: --proto-dir relative to the current folder, when inside it).")
    var protoDirectoryHint: String?

    /// The hint recorded: given, or the schema folder relative to the current one when inside it
    /// (never an absolute path, which would make the output machine-specific).
    var hint: String? {
        if let protoDirectoryHint { return protoDirectoryHint }
        let cwd = FileManager.default.currentDirectoryPath + "/"
        let folder = SchemaGeneration.absolute(options.protoDirectory)
        return folder.hasPrefix(cwd) ? String(folder.dropFirst(cwd.count)) : nil
    }

    public init() {}

    /// The catalog folder written: given (empty: none), else the bundled schema's rule.
    var catalog: String? {
        if let catalogOut { return catalogOut.isEmpty ? nil : catalogOut }
        return BundledSchemaLayout.defaultCatalog(protoDirectory: options.protoDirectory, swiftOut: options.swiftOut,
                                                  cOnly: options.cOnly, pruneSources: options.pruneSources)
    }

    public func validate() throws {
        if catalog != nil && (options.cOnly || options.swiftOut == nil || !options.pruneSources.isEmpty) {
            throw ValidationError("--catalog-out needs facades for every type: --swift-out, without --c-only or --prune-sources")
        }
    }

    public func run() throws {
        for line in try generate() { print(line) }
    }

    /// Generates C, facades and, when one is due, the catalog; returns the lines the command
    /// prints: the run's report, the catalog's, then the declaration hint when one is due.
    func generate() throws -> [String] {
        let tools = try GenerationTools.inTree(GenerationTools.wireproofRoot())
        let lines: [String]
        if let catalog {
            lines = try Self.generate(options.request, catalogOut: catalog, protoDirectoryHint: hint, tools: tools).report
        } else {
            lines = try SchemaGeneration.run(options.request, tools: tools).report
        }
        return lines + options.hint()
    }

    /// Generates C, facades and the catalog from one plan; returns the lines to report, the
    /// files whose C and facades were generated, and whether the schema sets nanopb options (known
    /// only when the request asks for the limits they give; else false).
    static func generate(_ request: GenerationRequest, catalogOut: String, protoDirectoryHint: String?,
                         tools: GenerationTools) throws(GeneratorError) -> (report: [String], files: [String], setsNanopbOptions: Bool) {
        let result = try SchemaGeneration.run(request, tools: tools)
        let facadeModule = URL(fileURLWithPath: request.swiftOut ?? "").lastPathComponent
        var inputs = result.inputs
        inputs.selection = .all
        let files = try CatalogCommand.catalog(schema: result.schema, facadeModule: facadeModule,
                                               protoDirectoryHint: protoDirectoryHint, inputs: inputs)
        let report = result.report + (try CatalogCommand.write(files, to: catalogOut))
            + ["proto: catalog in \(SchemaGeneration.display(SchemaGeneration.absolute(catalogOut)))"]
        return (report, result.cFiles, result.deviceLayout != nil)
    }
}
