// What to emit and what everything is called: type names for the whole schema, the set of types
// to emit (all, or pruned to what source folders spell plus what those need), namespaces, and the
// member names of each emitted message with collisions resolved deterministically.

import ProtoSchema

/// How the set of emitted types is chosen.
public enum TypeSelection: Equatable, Sendable {
    /// Every message and enum of the descriptor set.
    case all
    /// The types whose Swift names appear in these identifiers (collected from source files),
    /// plus every type they need.
    case spelled(Set<String>)
}

struct FacadePlan {
    let schema: SchemaSet
    /// Swift type name by fully qualified proto name (messages, enums).
    private(set) var swiftNames: [String: String] = [:]
    /// Messages and enums to emit, by full name.
    private(set) var emitted: Set<String> = []
    /// Messages emitted as a caseless `enum` namespace instead of a message typealias.
    private(set) var namespaces: Set<String> = []

    init(schema: SchemaSet, selection: TypeSelection) throws(GeneratorError) {
        self.schema = schema
        try assignTypeNames()
        let roots: [String]
        switch selection {
        case .all:
            roots = schema.messages.filter { !$0.isMapEntry }.map(\.fullName) + schema.enums.map(\.fullName)
        case .spelled(let identifiers):
            roots = Self.spelledRoots(identifiers, names: swiftNames, schema: schema)
        }
        close(over: roots)
        findNamespaces()
        try validate()
    }

    // MARK: Names

    private mutating func assignTypeNames() throws(GeneratorError) {
        var owner: [String: String] = [:]
        func claim(_ name: String, _ fullName: String) throws(GeneratorError) {
            if let first = owner[name] { throw .nameCollision(name: name, first: first, second: fullName) }
            owner[name] = fullName
        }
        for file in schema.files {
            let prefix = Naming.typePrefix(file)
            for message in schema.messages where message.file == file.name {
                let path = Naming.relativePath(fullName: message.fullName, package: message.package)
                let name = Naming.swiftTypeName(prefix: prefix, path: path, disambiguator: "Message")
                swiftNames[message.fullName] = name
                if !message.isMapEntry { try claim(name, message.fullName) }
                for oneof in message.realOneofs {
                    try claim(oneofTypeName(messageName: name, oneof: oneof), "\(message.fullName).\(oneof.name)")
                }
            }
            for enumType in schema.enums where enumType.file == file.name {
                let path = Naming.relativePath(fullName: enumType.fullName, package: enumType.package)
                let name = Naming.swiftTypeName(prefix: prefix, path: path, disambiguator: "Enum")
                swiftNames[enumType.fullName] = name
                try claim(name, enumType.fullName)
            }
        }
    }

    func oneofTypeName(messageName: String, oneof: OneofSchema) -> String {
        "\(messageName)_OneOf_\(Naming.camelCase(oneof.name, initialUpper: true))"
    }

    func swiftName(_ fullName: String) -> String { swiftNames[fullName]! }

    // MARK: Selection

    /// Types whose name (or a oneof enum of theirs) appears among the identifiers. A dotted
    /// chain `A.B` also counts as `A_B`, so namespace spellings (`Pkg_Outer.Inner`) select too.
    private static func spelledRoots(_ identifiers: Set<String>, names: [String: String], schema: SchemaSet) -> [String] {
        var byName: [String: String] = [:]
        for (fullName, name) in names { byName[name] = fullName }
        for message in schema.messages {
            let name = names[message.fullName]!
            for oneof in message.realOneofs {
                byName["\(name)_OneOf_\(Naming.camelCase(oneof.name, initialUpper: true))"] = message.fullName
            }
        }
        var roots: Set<String> = []
        for identifier in identifiers {
            let parts = identifier.split(separator: ".")
            for end in parts.indices {
                if let fullName = byName[parts[...end].joined(separator: "_")] { roots.insert(fullName) }
            }
        }
        return roots.sorted()
    }

    /// Adds everything the roots need: field types (through map entries), and for a selected
    /// namespace-like parent, nothing more (its children are selected only when spelled).
    private mutating func close(over roots: [String]) {
        var pending = roots
        while let fullName = pending.popLast() {
            guard emitted.insert(fullName).inserted, let message = schema.message(fullName) else { continue }
            for field in message.fields {
                guard let typeName = field.typeName else { continue }
                if let entry = schema.message(typeName), entry.isMapEntry {
                    pending += entry.fields.compactMap(\.typeName)
                } else {
                    pending.append(typeName)
                }
            }
        }
    }

    /// A message with no fields that holds emitted nested types, and is neither a field type nor
    /// a map entry, becomes a caseless enum: it keeps the dotted spelling (`Pkg_Outer.Inner`)
    /// working through typealiases. The flat names stay the canonical ones.
    private mutating func findNamespaces() {
        var referenced: Set<String> = []
        for message in schema.messages where emitted.contains(message.fullName) {
            for field in message.fields { if let t = field.typeName { referenced.insert(t) } }
        }
        for message in schema.messages where emitted.contains(message.fullName) {
            guard message.fields.isEmpty, !message.isMapEntry, !referenced.contains(message.fullName) else { continue }
            let children = message.nestedMessages + message.nestedEnums
            if children.contains(where: { emitted.contains($0) && schema.message($0)?.isMapEntry != true }) {
                namespaces.insert(message.fullName)
            }
        }
    }

    /// Refuses what nanopb or the facades cannot represent, naming the file and element.
    private func validate() throws(GeneratorError) {
        var emittedFiles: Set<String> = []
        for message in schema.messages where emitted.contains(message.fullName) {
            emittedFiles.insert(message.file)
            for field in message.fields where field.type == .group {
                throw .unsupported(file: message.file, element: "\(message.fullName).\(field.name)",
                                   reason: "groups are not supported by nanopb's pointer fields or the facades")
            }
            if let ext = message.extensions.first(where: { !Self.isCustomOption($0) }) {
                throw .unsupported(file: message.file, element: "extension \(ext.scope).\(ext.name)",
                                   reason: "extensions are not supported by the facades")
            }
        }
        for enumType in schema.enums where emitted.contains(enumType.fullName) { emittedFiles.insert(enumType.file) }
        for file in schema.files where emittedFiles.contains(file.name) {
            if file.syntax == .editions {
                throw .unsupported(file: file.name, element: "edition", reason: "editions files are not supported by nanopb 0.4.7")
            }
            if let ext = file.extensions.first(where: { !Self.isCustomOption($0) }) {
                throw .unsupported(file: file.name, element: "extension \(ext.scope).\(ext.name)",
                                   reason: "extensions are not supported by the facades")
            }
        }
    }

    /// Custom options (`extend google.protobuf.FieldOptions { ... }`, as in nanopb.proto) annotate
    /// the schema at compile time and never appear in a message's encoding: they are ignored, not
    /// refused. Extensions of the schema's own messages are refused.
    static func isCustomOption(_ field: FieldSchema) -> Bool {
        guard let extendee = field.extendee else { return false }
        return extendee.hasPrefix("google.protobuf.") && extendee.hasSuffix("Options")
    }

    // MARK: Members

    /// Member names of one message: a property per field and per real oneof, `hasX` / `clearX`
    /// per field with explicit presence outside a real oneof. Collisions (`foo_bar` vs `fooBar`,
    /// `has_x` vs `hasX`) are resolved in declaration order, later names taking a suffix with the
    /// field number (`fooBar_7`), then underscores, so the result never depends on hashing.
    struct Members {
        var field: [Int32: String] = [:]
        var has: [Int32: String] = [:]
        var clear: [Int32: String] = [:]
        var oneof: [Int: String] = [:]
        var oneofCase: [Int32: String] = [:]
    }

    func members(of message: MessageSchema) -> Members {
        var members = Members()
        var used: Set<String> = []
        func unique(_ base: String, suffix: String) -> String {
            var name = base
            if used.contains(name) { name = base + suffix }
            while used.contains(name) { name += "_" }
            used.insert(name)
            return name
        }
        for field in message.fields {
            members.field[field.number] = unique(Naming.propertyName(field.name), suffix: "_\(field.number)")
        }
        for (index, oneof) in message.oneofs.enumerated() where !oneof.isSynthetic {
            members.oneof[index] = unique(Naming.propertyName(oneof.name), suffix: "_oneof")
        }
        for field in message.fields where hasAccessors(field, in: message) {
            let base = Naming.upperFirst(members.field[field.number]!)
            members.has[field.number] = unique("has" + base, suffix: "_\(field.number)")
            members.clear[field.number] = unique("clear" + base, suffix: "_\(field.number)")
        }
        // Oneof enum cases live in their own type; only collisions among members matter.
        for oneof in message.realOneofs {
            var caseNames: Set<String> = []
            for number in oneof.fieldNumbers {
                var name = Naming.camelCase(message.field(number: number)!.name, initialUpper: false)
                if Naming.reservedEnumCases.contains(name) { name += "_" }
                if caseNames.contains(name) { name += "_\(number)" }
                caseNames.insert(name)
                members.oneofCase[number] = name
            }
        }
        return members
    }

    /// Real oneof (not the synthetic one of a proto3 `optional`) a field belongs to, if any.
    func realOneof(of field: FieldSchema, in message: MessageSchema) -> (index: Int, oneof: OneofSchema)? {
        guard let index = field.oneofIndex, message.oneofs.indices.contains(index), !message.oneofs[index].isSynthetic
        else { return nil }
        return (index, message.oneofs[index])
    }

    func hasAccessors(_ field: FieldSchema, in message: MessageSchema) -> Bool {
        field.hasPresence && !field.isRepeated && realOneof(of: field, in: message) == nil
    }
}
