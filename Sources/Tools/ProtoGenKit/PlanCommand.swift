// `protogen plan`: the generation plan as JSON (PlanDocument), for tools that need to know what
// was generated without reading generated text. Skipped nanopb options are printed
// to standard error, one a line, with the reason; refused ones fail the command.

import ArgumentParser
import Foundation
import ProtoSchema

/// `protogen plan`: the plan as JSON on standard output; skipped, honoured and refused options
/// on standard error.
public struct PlanCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Print the generation plan (files with C, every name, options) as JSON.")

    @OptionGroup public var plan: PlanInputOptions

    @Option(name: .customLong("prune-sources"), parsing: .upToNextOption,
            help: "Plan only the types these source folders spell, plus what they need.")
    public var pruneSources: [String] = []

    public init() {}

    /// The plan these flags describe.
    func buildPlan() throws(GeneratorError) -> FacadePlan {
        let selection: TypeSelection = pruneSources.isEmpty ? .all : .spelled(try SourceScanner.identifiers(in: pruneSources))
        return try FacadePlan(schema: plan.loadSchema(), inputs: plan.inputs(selection: selection))
    }

    /// The plan as one JSON text; the option and extension report (`SchemaGeneration.planReport`)
    /// goes to `report` a line at a time, standard error unless a test passes its own.
    func generate(report: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) throws(GeneratorError) -> [String] {
        let plan = try buildPlan()
        for line in SchemaGeneration.planReport(plan) { report(line) }
        return [ProtoGen.planJSON(plan)]
    }

    public func run() throws {
        for line in try generate() { print(line) }
    }
}

extension ProtoGen {
    /// The plan as JSON (keys sorted, so the text is deterministic).
    static func planJSON(_ plan: FacadePlan) -> String { PlanDocument(plan).json }
}
