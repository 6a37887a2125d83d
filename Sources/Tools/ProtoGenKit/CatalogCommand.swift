// `protogen catalog`: a schema's catalog module for the proof (see CatalogEmitter). Parsed with
// the one parser (CommandLine.swift) and the same plan inputs as `facades`; ProtoGen.run dispatches to it.

import ProtoSchema

extension ProtoGen {
    public static let catalogUsage = """
        usage: protogen catalog PLAN-INPUTS --facade-module MODULE --swift-out DIR [--proto-dir-hint DIR]
        \(PlanFlags.usage)
        """

    /// Parsed `catalog` options.
    public struct CatalogOptions: Equatable, Sendable {
        public var descriptorSet: String
        /// Module of the facades the generated code imports and builds with.
        public var facadeModule: String
        public var swiftOut: String
        /// The schema folder relative to the package root, recorded for the tests.
        public var protoDirectoryHint: String?
        /// The same plan inputs the facades were generated with.
        public var plan: PlanInputs
    }

    static let catalogFlags = PlanFlags.flags.merging(
        ["--facade-module": .one, "--swift-out": .one, "--proto-dir-hint": .one]) { a, _ in a }

    public static func parseCatalog(_ arguments: [String]) throws(GeneratorError) -> CatalogOptions {
        guard arguments.first == "catalog" else { throw .usage(catalogUsage) }
        let parsed = try ParsedFlags.parse(arguments.dropFirst(), flags: catalogFlags, usage: catalogUsage)
        return CatalogOptions(
            descriptorSet: try parsed.required("--descriptor-set", usage: catalogUsage),
            facadeModule: try parsed.required("--facade-module", usage: catalogUsage),
            swiftOut: try parsed.required("--swift-out", usage: catalogUsage),
            protoDirectoryHint: parsed.one("--proto-dir-hint"),
            plan: try PlanFlags.inputs(parsed, selection: .all, usage: catalogUsage))
    }

    /// Generates the catalog module in memory, for facades generated with `--all-types`.
    public static func catalog(schema: SchemaSet, facadeModule: String, protoDirectoryHint: String?,
                               inputs: PlanInputs = PlanInputs()) throws(GeneratorError) -> [GeneratedFile] {
        let plan = try FacadePlan(schema: schema, inputs: inputs)
        return try CatalogEmitter(plan: plan, facadeModule: facadeModule, protoDirectoryHint: protoDirectoryHint).files()
    }

    static func runCatalog(_ arguments: [String]) throws(GeneratorError) -> [String] {
        let options = try parseCatalog(arguments)
        let files = try catalog(schema: loadSchema(options.descriptorSet), facadeModule: options.facadeModule,
                                protoDirectoryHint: options.protoDirectoryHint, inputs: options.plan)
        return try OutputFolder(path: options.swiftOut).replaceGenerated(with: files)
    }
}
