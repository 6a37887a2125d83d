// The generation plan as a document: what `protogen plan` prints and `--plan-out` writes, for tools
// that need to know what was generated without reading generated text (the bench's size probes).

import Foundation

/// One plan, as data. Encoded with sorted keys, so the text is deterministic.
public struct PlanDocument: Codable, Equatable, Sendable {
    /// One C-side rename (`Naming.cIdentifier`).
    public struct Rename: Codable, Equatable, Sendable {
        public var kind: String
        public var scope: String
        public var proto: String
        public var c: String
    }

    /// One emitted type: its names on every side and, for messages, the accessors the emitter gives
    /// it (`getters` of the message, `setters` and `mutators` of its Builder).
    public struct TypeEntry: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable { case message, namespace, `enum` }
        public var proto: String
        public var swift: String
        public var c: String
        public var file: String
        public var kind: Kind
        public var getters: [String]?
        public var setters: [String]?
        public var mutators: [String]?
    }

    public var roots: [String]
    public var cFiles: [String]
    public var cIncludes: [String]
    public var cRenames: [Rename]
    public var nanopbOptionsFile: [String]
    public var optionsMode: String
    public var honoured: [String]
    public var skipped: [String]
    public var skippedExtensions: [String]
    public var facadeFiles: [String]
    public var types: [TypeEntry]

    /// The messages (not namespaces or enums), in plan order.
    public var messages: [TypeEntry] { types.filter { $0.kind == .message } }

    init(_ plan: FacadePlan) {
        let schema = plan.schema
        var types: [TypeEntry] = []
        for message in schema.messages where plan.emitted.contains(message.fullName) {
            let isNamespace = plan.namespaces.contains(message.fullName)
            var entry = TypeEntry(proto: message.fullName, swift: plan.swiftName(message.fullName), c: plan.cTypeName(message.fullName),
                                  file: message.file, kind: isNamespace ? .namespace : .message)
            if !isNamespace {
                // The accessors as the emitter's model holds them (names as written in Swift).
                let declarations = MessageEmitter(plan: plan, cModule: "_").declarations(message)
                func members(_ kind: FacadeDeclaration.Kind, _ access: FacadeMember.Access) -> [String] {
                    declarations.filter { $0.kind == kind }.flatMap(\.members).filter { $0.access == access }.map(\.name)
                }
                entry.getters = members(.messageExtension, .getter)
                entry.setters = members(.builderExtension, .getterSetter)
                entry.mutators = members(.builderExtension, .mutatingFunc)
            }
            types.append(entry)
        }
        for enumType in schema.enums where plan.emitted.contains(enumType.fullName) {
            types.append(TypeEntry(proto: enumType.fullName, swift: plan.swiftName(enumType.fullName), c: plan.cTypeName(enumType.fullName),
                                   file: enumType.file, kind: .enum))
        }
        roots = plan.roots.sorted()
        cFiles = plan.cFiles
        cIncludes = plan.cClosure
        cRenames = plan.cRenames.map { Rename(kind: $0.kind.rawValue, scope: $0.scope, proto: $0.protoName, c: $0.cName) }
        nanopbOptionsFile = plan.nanopbOptionsFile
        optionsMode = plan.inputs.optionsMode.rawValue
        honoured = plan.honoured.map(\.label)
        skipped = plan.skipped.map { "\($0.setting.label): \($0.reason)" }
        skippedExtensions = plan.skippedExtensions.map(FacadePlan.extensionLabel)
        facadeFiles = FacadeEmitter(plan: plan, cModule: "_").models().map(\.name)
        self.types = types
    }

    /// The document as JSON text (sorted keys, indented).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }

    /// Reads a document `--plan-out` wrote.
    public static func load(_ path: String) throws(GeneratorError) -> PlanDocument {
        guard let data = FileManager.default.contents(atPath: path) else { throw .io(path: path, reason: "cannot read") }
        do { return try JSONDecoder().decode(PlanDocument.self, from: data) } catch {
            throw .io(path: path, reason: "not a generation plan: \(error)")
        }
    }
}
