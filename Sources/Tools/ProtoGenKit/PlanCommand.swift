// `protogen plan`: the generation plan as JSON, for the C side (scripts/proto.sh,
// scripts/proto-split.py) and for scripts that need to know what was generated (bench.sh,
// Benchmarks/touch-gen.py) without reading generated text. Skipped nanopb options are printed
// to standard error, one a line, with the reason; refused ones fail the command.

import Foundation
import ProtoSchema

extension ProtoGen {
    static let planFlags = PlanFlags.flags.merging(["--prune-sources": .many]) { a, _ in a }

    /// The plan of a command line (`plan PLAN-INPUTS [--prune-sources DIR ...]`).
    static func planFromArguments(_ arguments: [String]) throws(GeneratorError) -> FacadePlan {
        let parsed = try ParsedFlags.parse(arguments.dropFirst(), flags: planFlags, usage: usage)
        let prune = parsed.many("--prune-sources")
        let selection: TypeSelection = prune.isEmpty ? .all : .spelled(try SourceScanner.identifiers(in: prune))
        let inputs = try PlanFlags.inputs(parsed, selection: selection, usage: usage)
        return try FacadePlan(schema: loadSchema(try parsed.required("--descriptor-set", usage: usage)), inputs: inputs)
    }

    static func runPlan(_ arguments: [String]) throws(GeneratorError) -> [String] {
        let plan = try planFromArguments(arguments)
        for (setting, reason) in plan.skipped {
            FileHandle.standardError.write(Data("protogen: nanopb option skipped: \(setting.label): \(reason)\n".utf8))
        }
        for ext in plan.skippedExtensions {
            FileHandle.standardError.write(Data("protogen: extension skipped: \(FacadePlan.extensionLabel(ext)): \(FacadePlan.extensionSkipReason)\n".utf8))
        }
        for setting in plan.honoured {
            FileHandle.standardError.write(Data("protogen: nanopb option honoured: \(setting.label)\n".utf8))
        }
        return [planJSON(plan)]
    }

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
