// The protogen command, as a library so it can be tested without a process: `plan` (what the C
// side generates, and every name) and `facades` (the Swift facades). Both parse the same plan
// inputs (PlanInputOptions) and build the same FacadePlan.

import ArgumentParser
import CommandLineSupport
import Foundation
import NanopbDeviceLayout
import ProtoSchema

/// `protogen`: Swift facades for nanopb C structs from a protoc descriptor set.
public struct ProtoGen: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "protogen",
        abstract: "Swift facades for nanopb C structs, from a protoc descriptor set.",
        subcommands: [GenerateCommand.self, PlanCommand.self, FacadesCommand.self])

    public init() {}

    /// Runs a command line (without the program name); returns the process exit status. Usage
    /// errors print the message and usage and return 2; `--help` prints help and returns 0; a
    /// refused generation writes "protogen: <why>" through `report` (standard error) and returns 1.
    public static func main(_ arguments: [String],
                            report: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let error as GeneratorError {
            report("protogen: \(error)")
            return 1
        } catch {
            return CommandExit.status(for: error, of: Self.self)
        }
    }

    /// Runs a command line and returns the summary lines instead of printing them (for tests).
    @discardableResult
    public static func run(_ arguments: [String]) throws -> [String] {
        let command = try parseAsRoot(arguments)
        switch command {
        case let facades as FacadesCommand: return try facades.generate()
        case let plan as PlanCommand: return try plan.generate()
        case let generate as GenerateCommand: return try generate.generate()
        default: throw CleanExit.helpRequest(command)
        }
    }

    /// Generates facades in memory (no file system access beyond what `selection` needed).
    public static func facades(schema: SchemaSet, cModule: String, selection: TypeSelection) throws(GeneratorError) -> [GeneratedFile] {
        try facades(schema: schema, cModule: cModule, inputs: PlanInputs(selection: selection))
    }

    /// With `deviceLayout`, the facades also carry the device build's limits (`NanopbDeviceLimited`).
    public static func facades(schema: SchemaSet, cModule: String, inputs: PlanInputs,
                               deviceLayout: DeviceLayout? = nil) throws(GeneratorError) -> [GeneratedFile] {
        let plan = try FacadePlan(schema: schema, inputs: inputs)
        // The facades name C types through the C module (`NanopbMsg<CMod.X>`); a facade type of
        // the same name as the module would shadow it there.
        if let clash = plan.emitted.sorted().first(where: { plan.swiftName($0) == cModule }) {
            throw .nameCollision(name: cModule, first: "the C module", second: clash)
        }
        return try FacadeEmitter(plan: plan, cModule: cModule, deviceLayout: deviceLayout).files()
    }
}

/// `protogen facades`: writes the facades of a plan into a folder.
public struct FacadesCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "facades", abstract: "Write the Swift facades of the schema into a folder.")

    @OptionGroup public var plan: PlanInputOptions

    @Option(name: .customLong("c-module"), help: "The nanopb C module the facades wrap.")
    public var cModule: String

    @Option(name: .customLong("swift-out"), help: "The folder of generated facades (only protogen's own files are replaced).")
    public var swiftOut: String

    @Flag(name: .customLong("all-types"), help: "Facades for every type of the roots.")
    public var allTypes = false

    @Option(name: .customLong("prune-sources"), parsing: .upToNextOption,
            help: "Facades only for the types these source folders spell, plus what they need.")
    public var pruneSources: [String] = []

    public init() {}

    public func validate() throws {
        if allTypes == !pruneSources.isEmpty { throw ValidationError("give exactly one of --all-types and --prune-sources") }
    }

    /// The plan inputs, with the selection `--all-types` or `--prune-sources` asks for.
    public func planInputs() throws(GeneratorError) -> PlanInputs {
        try plan.inputs(selection: pruneSources.isEmpty ? .all : .spelled(try SourceScanner.identifiers(in: pruneSources)))
    }

    /// Writes the facades; returns one line per file written or removed.
    public func generate() throws(GeneratorError) -> [String] {
        let files = try ProtoGen.facades(schema: plan.loadSchema(), cModule: cModule, inputs: planInputs())
        return try OutputFolder(path: swiftOut).replaceGenerated(with: files)
    }

    public func run() throws {
        for line in try generate() { print(line) }
    }
}
