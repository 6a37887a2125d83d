// Names in the plan: every type's Swift name (unique, or generation stops), C names after the
// C rename rule, and the renames the descriptor handed to nanopb must carry (FacadePlan.swift).

import ProtoSchema

/// A C-side rename the descriptor handed to nanopb must carry (Naming.cIdentifier).
package struct CRename: Equatable, Hashable, Comparable {
    package enum Kind: String { case field, oneof, type }
    package let kind: Kind
    /// The message (field, oneof) or the type itself (type).
    package let scope: String
    package let protoName: String
    package let cName: String
    package static func < (a: CRename, b: CRename) -> Bool {
        (a.scope, a.kind.rawValue, a.protoName) < (b.scope, b.kind.rawValue, b.protoName)
    }
}

extension FacadePlan {

    mutating func assignTypeNames() throws(GeneratorError) {
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

    package func oneofTypeName(messageName: String, oneof: OneofSchema) -> String {
        "\(messageName)_OneOf_\(Naming.camelCase(oneof.name, initialUpper: true))"
    }

    package func swiftName(_ fullName: String) -> String { swiftNames[fullName]! }

    /// nanopb's C name of a message or enum, after the C rename rule.
    package func cTypeName(_ fullName: String) -> String {
        let package = schema.message(fullName)?.package ?? schema.enumType(fullName)?.package ?? ""
        return Naming.cTypeName(fullName: fullName, package: package)
    }

    /// The name a nested type takes inside its namespace enum (`Outer.Type` -> `TypeEnum`): the
    /// same rule as flat type names, applied to the last component.
    package func namespaceMemberName(_ fullName: String) -> String {
        let last = String(fullName.split(separator: ".").last!)
        return Naming.swiftTypeName(prefix: "", path: [last], disambiguator: schema.enumType(fullName) != nil ? "Enum" : "Message")
    }

    /// The C renames of every file that gets C here: DescriptorSetWriter applies them to the
    /// descriptor nanopb reads.
    package var cRenames: [CRename] {
        var renames: [CRename] = []
        let files = Set(cFiles)
        for message in schema.messages where files.contains(message.file) {
            if message.package.isEmpty && message.parent == nil && Naming.cTypeIdentifier(message.name) != message.name {
                renames.append(CRename(kind: .type, scope: message.fullName, protoName: message.name, cName: Naming.cTypeIdentifier(message.name)))
            }
            for field in message.fields where Naming.cIdentifier(field.name) != field.name {
                renames.append(CRename(kind: .field, scope: message.fullName, protoName: field.name, cName: Naming.cIdentifier(field.name)))
            }
            for oneof in message.realOneofs where Naming.cIdentifier(oneof.name) != oneof.name {
                renames.append(CRename(kind: .oneof, scope: message.fullName, protoName: oneof.name, cName: Naming.cIdentifier(oneof.name)))
            }
        }
        for enumType in schema.enums where files.contains(enumType.file) {
            if enumType.package.isEmpty && enumType.parent == nil && Naming.cTypeIdentifier(enumType.name) != enumType.name {
                renames.append(CRename(kind: .type, scope: enumType.fullName, protoName: enumType.name, cName: Naming.cTypeIdentifier(enumType.name)))
            }
        }
        return renames.sorted()
    }
}
