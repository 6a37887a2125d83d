// `wireproof catalog`: a schema's catalog module for the proof (see CatalogEmitter), from the same
// plan inputs the facades were generated with (PlanInputOptions), every type selected.

import ArgumentParser
import ProtoGenKit
import ProtoSchema

/// `wireproof catalog`: writes the catalog module of a schema whose facades cover every type.
public struct CatalogCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Write the schema's catalog module: every oracle exemplar built through the facades.")

    @OptionGroup public var plan: PlanInputOptions

    @Option(name: .customLong("facade-module"), help: "Module of the facades the generated code imports and builds with.")
    public var facadeModule: String

    @Option(name: .customLong("swift-out"), help: "The catalog folder (only generated files are replaced).")
    public var swiftOut: String

    @Option(name: .customLong("proto-dir-hint"), help: "The schema folder relative to the package root, recorded for the tests.")
    public var protoDirectoryHint: String?

    public init() {}

    /// Writes the catalog; returns one line per file written or removed.
    public func generate() throws(GeneratorError) -> [String] {
        let files = try Self.catalog(schema: plan.loadSchema(), facadeModule: facadeModule,
                                     protoDirectoryHint: protoDirectoryHint, inputs: plan.inputs(selection: .all))
        return try Self.write(files, to: swiftOut)
    }

    /// Replaces the catalog files in `folder` (files without the catalog's header are left alone).
    public static func write(_ files: [GeneratedFile], to folder: String) throws(GeneratorError) -> [String] {
        try OutputFolder(path: folder, headerPrefix: CatalogEmitter.generatedHeaderPrefix).replaceGenerated(with: files)
    }

    public func run() throws {
        for line in try generate() { print(line) }
    }

    /// Generates the catalog module in memory, for facades generated with `--all-types`.
    public static func catalog(schema: SchemaSet, facadeModule: String, protoDirectoryHint: String?,
                               inputs: PlanInputs = PlanInputs()) throws(GeneratorError) -> [GeneratedFile] {
        let plan = try FacadePlan(schema: schema, inputs: inputs)
        return try CatalogEmitter(plan: plan, facadeModule: facadeModule, protoDirectoryHint: protoDirectoryHint).files()
    }
}
