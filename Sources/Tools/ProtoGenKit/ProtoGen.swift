// The protogen command, as a library so it can be tested without a process. Subcommands:
// `plan` (what proto.sh generates C for, and every name), `facades` (the Swift facades) and
// `catalog`; all parse their flags with ParsedFlags and build the same FacadePlan.

import Foundation
import ProtoSchema

public enum ProtoGen {
    public static let usage = """
        usage: protogen plan PLAN-INPUTS
               protogen facades PLAN-INPUTS --c-module CMODULE --swift-out DIR
                                [--all-types | --prune-sources DIR ...]
               protogen catalog PLAN-INPUTS --facade-module MODULE --swift-out DIR [--proto-dir-hint DIR]
        \(PlanFlags.usage)
        """

    /// Runs a command line (without the program name); returns the process exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        do {
            let written = try run(arguments)
            for line in written { print(line) }
            return 0
        } catch {
            FileHandle.standardError.write(Data("protogen: \(error)\n".utf8))
            return 1
        }
    }

    /// Parsed `facades` options.
    public struct FacadeOptions: Equatable, Sendable {
        public var descriptorSet: String
        public var cModule: String
        public var swiftOut: String
        public var plan: PlanInputs
        /// Source folders for `--prune-sources` (empty with `--all-types`).
        public var pruneSources: [String]
    }

    static let facadeFlags = PlanFlags.flags.merging(
        ["--c-module": .one, "--swift-out": .one, "--all-types": .none, "--prune-sources": .many]) { a, _ in a }

    public static func parse(_ arguments: [String]) throws(GeneratorError) -> FacadeOptions {
        guard arguments.first == "facades" else { throw .usage(usage) }
        let parsed = try ParsedFlags.parse(arguments.dropFirst(), flags: facadeFlags, usage: usage)
        if parsed.has("--all-types") == parsed.has("--prune-sources") {
            throw .usage("give exactly one of --all-types and --prune-sources\n\(usage)")
        }
        let prune = parsed.many("--prune-sources")
        let selection: TypeSelection = prune.isEmpty ? .all : .spelled(try SourceScanner.identifiers(in: prune))
        return FacadeOptions(
            descriptorSet: try parsed.required("--descriptor-set", usage: usage),
            cModule: try parsed.required("--c-module", usage: usage),
            swiftOut: try parsed.required("--swift-out", usage: usage),
            plan: try PlanFlags.inputs(parsed, selection: selection, usage: usage),
            pruneSources: prune)
    }

    /// Generates facades in memory (no file system access beyond what `selection` needed).
    public static func facades(schema: SchemaSet, cModule: String, selection: TypeSelection) throws(GeneratorError) -> [GeneratedFile] {
        try facades(schema: schema, cModule: cModule, inputs: PlanInputs(selection: selection))
    }

    public static func facades(schema: SchemaSet, cModule: String, inputs: PlanInputs) throws(GeneratorError) -> [GeneratedFile] {
        let plan = try FacadePlan(schema: schema, inputs: inputs)
        // The facades name C types through the C module (`NanopbMsg<CMod.X>`); a facade type of
        // the same name as the module would shadow it there.
        if let clash = plan.emitted.sorted().first(where: { plan.swiftName($0) == cModule }) {
            throw .nameCollision(name: cModule, first: "the C module", second: clash)
        }
        return try FacadeEmitter(plan: plan, cModule: cModule).files()
    }

    static func loadSchema(_ path: String) throws(GeneratorError) -> SchemaSet {
        do { return try SchemaSet(contentsOf: path) } catch { throw .schema(error) }
    }

    /// Runs the command; returns one summary line per file written or removed (for `plan`:
    /// the plan as JSON).
    @discardableResult
    public static func run(_ arguments: [String]) throws(GeneratorError) -> [String] {
        switch arguments.first {
        case "catalog": return try runCatalog(arguments)
        case "plan": return try runPlan(arguments)
        case "facades":
            let options = try parse(arguments)
            let files = try facades(schema: loadSchema(options.descriptorSet), cModule: options.cModule, inputs: options.plan)
            return try OutputFolder(path: options.swiftOut).replaceGenerated(with: files)
        default: throw .usage(usage)
        }
    }
}
