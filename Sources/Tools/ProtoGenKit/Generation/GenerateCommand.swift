// `protogen generate`: what `make proto` does, as one command over SchemaGeneration.

import ArgumentParser
import Foundation
import ProcessSupport

/// The flags of a generation run (shared with `wireproof generate`, which adds the catalog).
public struct GenerateOptions: ParsableArguments {
    @Option(name: .customLong("proto-dir"), help: "The schema root: every .proto below it, named relative to it.")
    public var protoDirectory: String

    @Option(name: .customLong("c-out"), help: "The C target folder (owned by generation: include/, src/ are replaced).")
    public var cOut: String

    @Option(name: .customLong("c-module"), help: "The C module name (default: the last component of --c-out).")
    public var cModule: String?

    @Option(name: .customLong("swift-out"), help: "The facade folder (only generated files are replaced).")
    public var swiftOut: String?

    @Flag(name: .customLong("c-only"), help: "Generate the C target only, no facades.")
    public var cOnly = false

    @Option(name: .customLong("prune-sources"), parsing: .upToNextOption,
            help: "Facades only for the types these source folders spell, plus what they need (default: every type).")
    public var pruneSources: [String] = []

    @Option(name: .customLong("options"), help: "A nanopb options file for every file (default: the single *.options at the schema root).")
    public var optionsFile: String?

    @Option(name: .customLong("proto-path"), help: "A further import root (repeatable); /usr/include is always searched.")
    public var protoPaths: [String] = []

    @Flag(name: [.customLong("honour-options"), .customLong("honor-options")],
          help: "Apply the options the facades can match, refuse the others (default: skip them all, printing each).")
    public var honourOptions = false

    @Flag(name: .customLong("limits-from-options"),
          help: "The facades carry the limits the schema's nanopb options give the device's build, and deviceLimitViolations() names every field that build would refuse.")
    public var limitsFromOptions = false

    @Option(name: .customLong("external-module"),
            help: "FACADES:CMODULE: files outside --proto-dir come from these modules (several schemas in one program).")
    public var externalModule: String?

    @Option(name: .customLong("descriptor-out"), help: "Also keep protoc's descriptor set there.")
    public var descriptorOut: String?

    @Option(name: .customLong("plan-out"), help: "Also write the generation plan (JSON: files, names, options) there.")
    public var planOut: String?

    @Option(name: .customLong("hint-package-root"),
            help: "The Wireproof package a hint names: if its Package.swift lacks the C module, print how to declare the targets.")
    public var hintPackageRoot: String?

    public init() {}

    public func validate() throws {
        if !cOnly && swiftOut == nil { throw ValidationError("--swift-out is required (or --c-only)") }
        if let external = externalModule, external.range(of: "^[A-Za-z_][A-Za-z0-9_]*:[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) == nil {
            throw ValidationError("--external-module wants FACADES:CMODULE, got '\(external)'")
        }
    }

    /// The request these flags describe.
    public var request: GenerationRequest {
        var request = GenerationRequest(protoDirectory: protoDirectory, cOut: cOut)
        request.cModule = cModule
        request.swiftOut = cOnly ? nil : swiftOut
        request.pruneSources = pruneSources
        request.optionsFile = optionsFile
        request.protoPaths = protoPaths
        request.honourOptions = honourOptions
        request.limitsFromOptions = limitsFromOptions
        request.descriptorOut = descriptorOut
        request.planOut = planOut
        if let external = externalModule?.split(separator: ":"), external.count == 2 {
            request.external = ExternalModules(facadeModule: String(external[0]), cModule: String(external[1]))
        }
        return request
    }

    /// How to declare the generated folders, when `--hint-package-root` names a package whose
    /// manifest does not declare the C module yet.
    public func hint() -> [String] {
        guard let root = hintPackageRoot.map(SchemaGeneration.absolute) else { return [] }
        let module = request.module
        // Read with stdio: Foundation's readers leak 4 KiB on an empty file (docs/sanitizers.md).
        let manifest = (try? ChildProcess.readText(root + "/Package.swift")) ?? ""
        if manifest.contains("\"\(module)\"") { return [] }
        let id = URL(fileURLWithPath: root).lastPathComponent.lowercased()
        var lines = [
            "proto: to use the result, declare the generated folders as targets of your package (tools 6.2+):",
            "    dependencies: [.package(path: \"\(root)\")],",
            "    .target(name: \"\(module)\", dependencies: [.product(name: \"CNanopb\", package: \"\(id)\")],",
            "            path: \"<\(SchemaGeneration.absolute(cOut)), relative to your package>\"),",
        ]
        if !cOnly, let swiftOut {
            let facade = URL(fileURLWithPath: swiftOut).lastPathComponent
            lines += ["    .target(name: \"\(facade)\", dependencies: [\"\(module)\", .product(name: \"NanopbRuntime\", package: \"\(id)\")],",
                      "            path: \"<\(SchemaGeneration.absolute(swiftOut)), relative to your package>\"),"]
        }
        lines.append("  (the C target's name must be \(module))")
        return lines
    }
}

/// `protogen generate`.
public struct GenerateCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "A .proto tree to a nanopb C target and Swift facades (what make proto does).",
        discussion: "Runs protoc once, nanopb's option loader and generator, and writes the C target and facades "
            + "from one plan. Nothing is written when any step refuses the schema.")

    @OptionGroup public var options: GenerateOptions

    public init() {}

    /// Generates what the options ask for and returns the lines the command prints: the run's
    /// report, then the declaration hint when one is due.
    func generate() throws -> [String] {
        let result = try SchemaGeneration.run(options.request, tools: GenerationTools.inTree(try GenerationTools.wireproofRoot()))
        return result.report + options.hint()
    }

    public func run() throws {
        for line in try generate() { print(line) }
    }
}
