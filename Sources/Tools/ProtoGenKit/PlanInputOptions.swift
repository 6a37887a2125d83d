// The plan inputs every protogen subcommand (and `wireproof catalog`) accepts, so all of them
// build one plan from the same flags.

import ArgumentParser
import ProtoSchema

/// The flags that become `PlanInputs` (without the type selection, which each command decides).
public struct PlanInputOptions: ParsableArguments {
    @Option(name: .customLong("descriptor-set"), help: "protoc --include_imports output (FILE.pb).")
    public var descriptorSet: String

    @Option(name: .customLong("roots"), parsing: .upToNextOption,
            help: "The user's files (default: every file but descriptor.proto and nanopb.proto).")
    public var roots: [String] = []

    @Option(name: .customLong("nanopb-options"), help: "The schema's own nanopb options (scripts/proto-options.py's JSON report).")
    public var nanopbOptions: String?

    @Flag(name: [.customLong("honour-options"), .customLong("honor-options")],
          help: "Honour the options the facades can match and refuse the others (default: skip them all, printing each).")
    public var honourOptions = false

    @Option(name: .customLong("external-facade-module"), help: "Files outside --roots come from this facade module.")
    public var externalFacadeModule: String?

    @Option(name: .customLong("external-c-module"), help: "Files outside --roots come from this C module.")
    public var externalCModule: String?

    public init() {}

    public func validate() throws {
        if (externalFacadeModule == nil) != (externalCModule == nil) {
            throw ValidationError("--external-facade-module and --external-c-module go together")
        }
    }

    /// The plan inputs these flags describe, with `selection` for the types.
    public func inputs(selection: TypeSelection) throws(GeneratorError) -> PlanInputs {
        var inputs = PlanInputs(selection: selection)
        if !roots.isEmpty { inputs.roots = roots }
        if let report = nanopbOptions { inputs.nanopbOptions = try NanopbOptionSetting.load(report) }
        inputs.optionsMode = honourOptions ? .honour : .skip
        if let facade = externalFacadeModule, let c = externalCModule {
            inputs.external = ExternalModules(facadeModule: facade, cModule: c)
        }
        return inputs
    }

    /// The schema the descriptor set holds.
    public func loadSchema() throws(GeneratorError) -> SchemaSet {
        do { return try SchemaSet(contentsOf: descriptorSet) } catch { throw .schema(error) }
    }
}
