// Which types and files the plan generates: spelled roots, the closure over field types, the
// files that get C, namespace messages, the refusals nanopb forces, and skipped extensions.

import ProtoSchema

extension FacadePlan {

    /// Types whose name (or a oneof enum of theirs) appears among the identifiers. A dotted
    /// chain `A.B` also counts as `A_B`, so namespace spellings (`Pkg_Outer.Inner`) select too.
    static func spelledRoots(_ identifiers: Set<String>, names: [String: String], schema: SchemaSet) -> [String] {
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

    /// Everything the root types need: field types (through map entries). FT_IGNORE fields need nothing.
    func close(over rootTypes: [String]) -> Set<String> {
        var reached: Set<String> = []
        var pending = rootTypes
        while let fullName = pending.popLast() {
            guard reached.insert(fullName).inserted, let message = schema.message(fullName) else { continue }
            for field in message.fields where !isIgnored(field, in: message) {
                guard let typeName = field.typeName else { continue }
                if let entry = schema.message(typeName), entry.isMapEntry {
                    pending += entry.fields.compactMap(\.typeName)
                } else {
                    pending.append(typeName)
                }
            }
        }
        return reached
    }

    /// nanopb generates whole files: a file gets C when one of its types is reached, and then
    /// every file its structs reference gets C too.
    mutating func findCFiles(reached: Set<String>) {
        var files: Set<String> = []
        var pending = reached.compactMap { schema.message($0)?.file ?? schema.enumType($0)?.file }
        while let file = pending.popLast() {
            guard files.insert(file).inserted else { continue }
            for message in schema.messages where message.file == file {
                for field in message.fields where !isIgnored(field, in: message) {
                    guard let typeName = field.typeName,
                          let target = schema.message(typeName)?.file ?? schema.enumType(typeName)?.file else { continue }
                    pending.append(target)
                }
            }
        }
        cClosure = schema.files.map(\.name).filter { files.contains($0) }
        cFiles = cClosure.filter { !isExternal($0) }
    }

    /// A message with no fields that holds emitted nested types, and is neither a field type nor
    /// a map entry, becomes a caseless enum: it keeps the dotted spelling (`Pkg_Outer.Inner`)
    /// working through typealiases. The flat names stay the canonical ones.
    mutating func findNamespaces() {
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

    /// Refuses what nanopb or the facades cannot represent, naming the file and element. Every
    /// file that gets C is checked: nanopb dies on a group anywhere in a file it generates.
    func validate() throws(GeneratorError) {
        let files = Set(cClosure)
        for message in schema.messages where files.contains(message.file) {
            for field in message.fields where field.type == .group && !isIgnored(field, in: message) {
                throw .unsupported(file: message.file, element: "\(message.fullName).\(field.name)",
                                   reason: "groups are not supported by nanopb's pointer fields or the facades")
            }
        }
        for file in schema.files where files.contains(file.name) {
            if file.syntax == .editions {
                throw .unsupported(file: file.name, element: "edition", reason: "editions files are not supported by nanopb 0.4.7")
            }
        }
    }

    /// Extensions declared in the files that get C here (custom options aside), in declaration
    /// order. They are not generated: nanopb sees none of them (DescriptorSetWriter drops them, every
    /// extendable message has `extensions type:FT_IGNORE`) and the facades have no accessor, so on
    /// decode an extension field is dropped like any unknown field (docs/deviations.md row 20).
    /// The rest of the schema is generated; `protogen plan` prints each skipped extension.
    package var skippedExtensions: [(file: String, field: FieldSchema)] {
        let files = Set(cFiles)
        var result: [(file: String, field: FieldSchema)] = []
        for file in schema.files where files.contains(file.name) {
            result += file.extensions.filter { !Self.isCustomOption($0) }.map { (file.name, $0) }
            for message in schema.messages where message.file == file.name {
                result += message.extensions.filter { !Self.isCustomOption($0) }.map { (file.name, $0) }
            }
        }
        return result
    }

    /// Custom options (`extend google.protobuf.FieldOptions { ... }`, as in nanopb.proto) annotate
    /// the schema at compile time and never appear in a message's encoding: they are ignored.
    /// Extensions of the schema's own messages are skipped and listed (`skippedExtensions`).
    package static func isCustomOption(_ field: FieldSchema) -> Bool {
        guard let extendee = field.extendee else { return false }
        return extendee.hasPrefix("google.protobuf.") && extendee.hasSuffix("Options")
    }
}

extension FacadePlan {
    /// `file: extension scope.name (field N of Extendee)`, how a skipped extension is reported.
    package static func extensionLabel(_ skipped: (file: String, field: FieldSchema)) -> String {
        let ext = skipped.field
        return "\(skipped.file): extension \(ext.scope).\(ext.name) (field \(ext.number) of \(ext.extendee ?? "?"))"
    }

    package static let extensionSkipReason = "the facades do not carry extensions; decoding drops the field like an unknown field (docs/deviations.md row 20)"
}
