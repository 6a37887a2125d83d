// `protogen plan`: the generation plan as JSON, for scripts that need to know what was generated (bench.sh,
// Benchmarks/touch-gen.py) without reading generated text. Skipped nanopb options are printed
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

    /// The plan as one JSON text; the option and extension report goes to standard error.
    func generate() throws(GeneratorError) -> [String] {
        let plan = try buildPlan()
        for (setting, reason) in plan.skipped {
            FileHandle.standardError.write(Data("protogen: nanopb option skipped: \(setting.label): \(reason)\n".utf8))
        }
        for ext in plan.skippedExtensions {
            FileHandle.standardError.write(Data("protogen: extension skipped: \(FacadePlan.extensionLabel(ext)): \(FacadePlan.extensionSkipReason)\n".utf8))
        }
        for setting in plan.honoured {
            FileHandle.standardError.write(Data("protogen: nanopb option honoured: \(setting.label)\n".utf8))
        }
        return [ProtoGen.planJSON(plan)]
    }

    public func run() throws {
        for line in try generate() { print(line) }
    }
}

extension ProtoGen {
    /// The plan as JSON (keys sorted, so the text is deterministic).
    static func planJSON(_ plan: FacadePlan) -> String {
        let schema = plan.schema
        var facadeFiles: [[String: Any]] = []
        for model in FacadeEmitter(plan: plan, cModule: "_").models() {
            facadeFiles.append(["swift": model.name])
        }
        var types: [[String: Any]] = []
        for message in schema.messages where plan.emitted.contains(message.fullName) {
            var entry: [String: Any] = ["proto": message.fullName, "swift": plan.swiftName(message.fullName), "c": plan.cTypeName(message.fullName),
                                        "file": message.file, "kind": plan.namespaces.contains(message.fullName) ? "namespace" : "message"]
            if !plan.namespaces.contains(message.fullName) {
                // The accessors as the emitter's model holds them (names as written in Swift).
                let declarations = MessageEmitter(plan: plan, cModule: "_").declarations(message)
                func members(_ kind: FacadeDeclaration.Kind, _ access: FacadeMember.Access) -> [String] {
                    declarations.filter { $0.kind == kind }.flatMap(\.members).filter { $0.access == access }.map(\.name)
                }
                entry["getters"] = members(.messageExtension, .getter)
                entry["setters"] = members(.builderExtension, .getterSetter)
                entry["mutators"] = members(.builderExtension, .mutatingFunc)
            }
            types.append(entry)
        }
        for enumType in schema.enums where plan.emitted.contains(enumType.fullName) {
            types.append(["proto": enumType.fullName, "swift": plan.swiftName(enumType.fullName), "c": plan.cTypeName(enumType.fullName),
                          "file": enumType.file, "kind": "enum"])
        }
        let object: [String: Any] = [
            "roots": plan.roots.sorted(),
            "cFiles": plan.cFiles,
            "cIncludes": plan.cClosure,
            "cRenames": plan.cRenames.map { ["kind": $0.kind.rawValue, "scope": $0.scope, "proto": $0.protoName, "c": $0.cName] },
            "nanopbOptionsFile": plan.nanopbOptionsFile,
            "optionsMode": plan.inputs.optionsMode.rawValue,
            "honoured": plan.honoured.map(\.label),
            "skipped": plan.skipped.map { "\($0.setting.label): \($0.reason)" },
            "skippedExtensions": plan.skippedExtensions.map(FacadePlan.extensionLabel),
            "facadeFiles": facadeFiles.map { $0["swift"]! },
            "types": types,
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }
}
