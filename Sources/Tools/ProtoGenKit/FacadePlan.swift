// The one generation plan, shared by the C side (SchemaGeneration hands it to nanopb)
// and the Swift side (the facade and exemplar emitters): which files get C, which types get
// facades, what everything is called in C and in Swift, and what happens to the schema's own
// nanopb options.
//
// What must stay true:
// - Deterministic: the same inputs give the same plan (no hashing order reaches any output).
// - The roots are the user's files. Option-only imports (descriptor.proto, nanopb.proto) and any
//   other import produce C and facades only when a type of theirs is reachable from the roots
//   through fields; custom options (`extend google.protobuf.*Options`) never stop generation.
// - The C side gets C for every file a generated struct needs (`cFiles`), in dependency order;
//   facades exist only for types in those files, minus the files another module provides.
// - Every C name the facades use comes from `Naming.cIdentifier` / `Naming.cTypeName`, the same
//   rule DescriptorSetWriter applies to the descriptor nanopb reads (`cRenames`).

import ProtoSchema

/// How the set of emitted types is chosen.
public enum TypeSelection: Equatable, Sendable {
    /// Every message and enum of the root files (and what they need).
    case all
    /// The types whose Swift names appear in these identifiers (collected from source files),
    /// plus every type they need.
    case spelled(Set<String>)
}

/// Everything the plan is computed from, besides the schema. `protogen plan`, `facades` and
/// the exemplar command parse these the same way (ProtoGenCommandLine).
public struct PlanInputs: Equatable, Sendable {
    /// The user's files (named as in the descriptor set). nil: every file except the option-only
    /// imports (`optionOnlyFiles`).
    public var roots: [String]?
    public var selection: TypeSelection
    /// The schema's own nanopb options, as scripts/proto-options.py reports them.
    public var nanopbOptions: [NanopbOptionSetting]
    public var optionsMode: NanopbOptionsMode
    /// Files outside `roots` come from these modules (facades, C) instead of being generated:
    /// how several schemas sharing imports (the well-known types) link into one program.
    public var external: ExternalModules?

    public init(roots: [String]? = nil, selection: TypeSelection = .all, nanopbOptions: [NanopbOptionSetting] = [],
                optionsMode: NanopbOptionsMode = .skip, external: ExternalModules? = nil) {
        self.roots = roots; self.selection = selection; self.nanopbOptions = nanopbOptions
        self.optionsMode = optionsMode; self.external = external
    }
}

/// The modules that hold the C and facades of imports shared with other schemas.
public struct ExternalModules: Equatable, Sendable {
    public var facadeModule: String
    public var cModule: String
    public init(facadeModule: String, cModule: String) { self.facadeModule = facadeModule; self.cModule = cModule }
}

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

package struct FacadePlan {
    package let schema: SchemaSet
    package let inputs: PlanInputs
    /// Files of the user's schema.
    package private(set) var roots: Set<String> = []
    /// Swift type name by fully qualified proto name (messages, enums), for every type.
    package private(set) var swiftNames: [String: String] = [:]
    /// Messages and enums to emit facades for (in files generated here), by full name.
    package private(set) var emitted: Set<String> = []
    /// Messages emitted as a caseless `enum` namespace instead of a message typealias.
    package private(set) var namespaces: Set<String> = []
    /// Files that get C, here or in the external module, in the descriptor set's (dependency) order.
    package private(set) var cClosure: [String] = []
    /// Files whose C this target holds (`cClosure` minus the external module's files).
    package private(set) var cFiles: [String] = []
    /// Honoured options, each with its element; skipped ones with their reasons.
    package private(set) var honoured: [NanopbOptionSetting] = []
    package private(set) var skipped: [(setting: NanopbOptionSetting, reason: String)] = []
    private var refused: [(setting: NanopbOptionSetting, reason: String)] = []
    /// Fields left out of the C struct (honoured FT_IGNORE), by message full name.
    package private(set) var ignoredFields: [String: Set<Int32>] = [:]

    /// The files the schema may import only for their options: nothing of them is generated
    /// unless a field of the user's schema uses one of their types.
    package static let optionOnlyFiles: Set<String> = ["google/protobuf/descriptor.proto", "nanopb.proto"]

    package init(schema: SchemaSet, selection: TypeSelection) throws(GeneratorError) {
        try self.init(schema: schema, inputs: PlanInputs(selection: selection))
    }

    package init(schema: SchemaSet, inputs: PlanInputs) throws(GeneratorError) {
        self.schema = schema
        self.inputs = inputs
        try findRoots()
        try assignTypeNames()
        decideOptions()
        let rootTypes: [String]
        switch inputs.selection {
        case .all:
            rootTypes = schema.messages.filter { roots.contains($0.file) && !$0.isMapEntry }.map(\.fullName)
                + schema.enums.filter { roots.contains($0.file) }.map(\.fullName)
        case .spelled(let identifiers):
            rootTypes = Self.spelledRoots(identifiers, names: swiftNames, schema: schema)
        }
        let reached = close(over: rootTypes)
        findCFiles(reached: reached)
        try refuseOptions()
        let generated = Set(cFiles)
        emitted = reached.filter { name in
            generated.contains(schema.message(name)?.file ?? schema.enumType(name)?.file ?? "")
        }
        findNamespaces()
        try validate()
    }

    // MARK: Roots

    private mutating func findRoots() throws(GeneratorError) {
        if let given = inputs.roots {
            for name in given where schema.file(name) == nil {
                throw .usage("--roots: \(name) is not in the descriptor set")
            }
            roots = Set(given)
        } else {
            roots = Set(schema.files.map(\.name).filter { !Self.optionOnlyFiles.contains($0) })
        }
    }

    /// Whether a file's C and facades come from the external module.
    package func isExternal(_ file: String) -> Bool { inputs.external != nil && !roots.contains(file) }

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

    // MARK: Options

    /// Decides every setting; refusals are kept until the files that get C are known
    /// (`refuseOptions`), since options of files that get no C do not matter.
    private mutating func decideOptions() {
        for setting in inputs.nanopbOptions {
            let field = setting.kind == "field" ? fieldSchema(element: setting.element) : nil
            switch NanopbOptionPolicy.decide(setting, field: field, mode: inputs.optionsMode) {
            case .honoured: honoured.append(setting)
            case .skipped(let reason): skipped.append((setting, reason))
            case .refused(let reason): refused.append((setting, reason))
            }
        }
        for setting in honoured where setting.option == "type" && setting.value == "FT_IGNORE" {
            if setting.kind == "field", let (message, field) = fieldParts(setting.element) {
                ignoredFields[message.fullName, default: []].insert(field.number)
            } else if setting.kind == "oneof", let (message, index) = oneofParts(setting.element) {
                for field in message.fields where field.oneofIndex == index {
                    ignoredFields[message.fullName, default: []].insert(field.number)
                }
            }
        }
    }

    /// Keeps the decisions about files that get C here; throws the refusals among them.
    private mutating func refuseOptions() throws(GeneratorError) {
        let files = Set(cFiles)
        honoured = honoured.filter { files.contains($0.file) }
        skipped = skipped.filter { files.contains($0.setting.file) }
        let refusals = refused.filter { files.contains($0.setting.file) }.map {
            "\($0.setting.label): \($0.reason). Remove it from \($0.setting.source), or generate without --honour-options (options are then skipped)"
        }
        if !refusals.isEmpty { throw .optionsRefused(refusals) }
    }

    private func fieldParts(_ element: String) -> (MessageSchema, FieldSchema)? {
        guard let dot = element.lastIndex(of: "."), let message = schema.message(String(element[..<dot])),
              let field = message.field(named: String(element[element.index(after: dot)...])) else { return nil }
        return (message, field)
    }

    private func oneofParts(_ element: String) -> (MessageSchema, Int)? {
        guard let dot = element.lastIndex(of: "."), let message = schema.message(String(element[..<dot])) else { return nil }
        let name = String(element[element.index(after: dot)...])
        guard let index = message.oneofs.firstIndex(where: { $0.name == name }) else { return nil }
        return (message, index)
    }

    private func fieldSchema(element: String) -> FieldSchema? { fieldParts(element)?.1 }

    private func honouredValue(_ option: String, element: String) -> String? {
        honoured.last { $0.option == option && $0.element == element }?.value
    }

    /// Whether a field is left out of the C struct (FT_IGNORE honoured).
    package func isIgnored(_ field: FieldSchema, in message: MessageSchema) -> Bool {
        ignoredFields[message.fullName]?.contains(field.number) ?? false
    }

    /// The nanopb options-file lines the C side applies: every field FT_POINTER, extension
    /// fields of extendable messages left out (the facades do not carry extensions), and the
    /// honoured options, on the C-renamed element names.
    package var nanopbOptionsFile: [String] {
        var lines = ["* type:FT_POINTER"]
        let files = Set(cFiles)
        for message in schema.messages where files.contains(message.file) && !message.extensionRanges.isEmpty {
            lines.append("\(cDottedName(message.fullName)).extensions type:FT_IGNORE")
        }
        for setting in honoured {
            lines.append("\(cDottedElement(setting)) \(setting.option):\(setting.value)")
        }
        return lines
    }

    /// A type's full name as nanopb matches it in options files, after C renames.
    private func cDottedName(_ fullName: String) -> String {
        guard let package = schema.message(fullName)?.package ?? schema.enumType(fullName)?.package else { return fullName }
        let path = Naming.relativePath(fullName: fullName, package: package)
        var parts = package.isEmpty ? [] : [package]
        if let top = path.first { parts.append(package.isEmpty ? Naming.cTypeIdentifier(top) : top) }
        return (parts + path.dropFirst()).joined(separator: ".")
    }

    private func cDottedElement(_ setting: NanopbOptionSetting) -> String {
        switch setting.kind {
        case "field", "oneof":
            guard let dot = setting.element.lastIndex(of: ".") else { return setting.element }
            let scope = String(setting.element[..<dot])
            return "\(cDottedName(scope)).\(Naming.cIdentifier(String(setting.element[setting.element.index(after: dot)...])))"
        case "message", "enum": return cDottedName(setting.element)
        default: return setting.element
        }
    }

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

    /// Everything the root types need: field types (through map entries). FT_IGNORE fields need nothing.
    private func close(over rootTypes: [String]) -> Set<String> {
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
    private mutating func findCFiles(reached: Set<String>) {
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

    /// Refuses what nanopb or the facades cannot represent, naming the file and element. Every
    /// file that gets C is checked: nanopb dies on a group anywhere in a file it generates.
    private func validate() throws(GeneratorError) {
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

    // MARK: Members

    /// Member names of one message: a property per field and per real oneof, `hasX` / `clearX`
    /// per field with explicit presence outside a real oneof. Collisions (`foo_bar` vs `fooBar`,
    /// `has_x` vs `hasX`) are resolved in declaration order, later names taking a suffix with the
    /// field number (`fooBar_7`), then underscores, so the result never depends on hashing.
    /// FT_IGNORE fields have no member.
    package struct Members {
        package var field: [Int32: String] = [:]
        package var has: [Int32: String] = [:]
        package var clear: [Int32: String] = [:]
        package var oneof: [Int: String] = [:]
        package var oneofCase: [Int32: String] = [:]
    }

    package func members(of message: MessageSchema) -> Members {
        var members = Members()
        var used: Set<String> = []
        func unique(_ base: String, suffix: String) -> String {
            var name = base
            if used.contains(name) { name = base + suffix }
            while used.contains(name) { name += "_" }
            used.insert(name)
            return name
        }
        let fields = message.fields.filter { !isIgnored($0, in: message) }
        for field in fields {
            members.field[field.number] = unique(Naming.propertyName(field.name), suffix: "_\(field.number)")
        }
        for (index, oneof) in message.oneofs.enumerated() where !oneof.isSynthetic && !isIgnoredOneof(index, in: message) {
            members.oneof[index] = unique(Naming.propertyName(oneof.name), suffix: "_oneof")
        }
        for field in fields where hasAccessors(field, in: message) {
            let base = Naming.upperFirst(members.field[field.number]!)
            members.has[field.number] = unique("has" + base, suffix: "_\(field.number)")
            members.clear[field.number] = unique("clear" + base, suffix: "_\(field.number)")
        }
        // Oneof enum cases live in their own type; only collisions among members matter.
        for oneof in message.realOneofs {
            var caseNames: Set<String> = []
            for number in oneof.fieldNumbers where members.field[number] != nil {
                var name = Naming.camelCase(message.field(number: number)!.name, initialUpper: false)
                if Naming.reservedEnumCases.contains(name) { name += "_" }
                if caseNames.contains(name) { name += "_\(number)" }
                caseNames.insert(name)
                members.oneofCase[number] = name
            }
        }
        return members
    }

    /// A oneof whose every member is FT_IGNORE has no struct members and no facade.
    package func isIgnoredOneof(_ index: Int, in message: MessageSchema) -> Bool {
        let numbers = message.oneofs[index].fieldNumbers
        return !numbers.isEmpty && numbers.allSatisfy { ignoredFields[message.fullName]?.contains($0) ?? false }
    }

    /// Real oneof (not the synthetic one of a proto3 `optional`) a field belongs to, if any.
    package func realOneof(of field: FieldSchema, in message: MessageSchema) -> (index: Int, oneof: OneofSchema)? {
        guard let index = field.oneofIndex, message.oneofs.indices.contains(index), !message.oneofs[index].isSynthetic
        else { return nil }
        return (index, message.oneofs[index])
    }

    package func hasAccessors(_ field: FieldSchema, in message: MessageSchema) -> Bool {
        field.hasPresence && !field.isRepeated && realOneof(of: field, in: message) == nil
    }

    // MARK: Field kinds (the one decision per field)

    /// How one value of `field` is held and seen.
    package func valueKind(_ field: FieldSchema, in message: MessageSchema) -> ValueKind {
        let defaults = FieldDefaults(schema: schema)
        switch field.type {
        case .string: return ValueKind(category: .string, swiftType: "String", defaultValue: defaults.string(field))
        case .bytes: return ValueKind(category: .bytes, swiftType: "[UInt8]", defaultValue: defaults.bytes(field))
        case .bool: return ValueKind(category: .bool, swiftType: "Bool", defaultValue: field.defaultValue == "true" ? "true" : "false")
        case .enum:
            let type = swiftName(field.typeName!)
            return ValueKind(category: .enumeration, swiftType: type, defaultValue: "\(type)(rawValue: \(defaults.enumNumber(field)))")
        case .message, .group:
            let type = swiftName(field.typeName!)
            return ValueKind(category: .message, swiftType: type, defaultValue: "\(type)()")
        case .float, .double:
            return ValueKind(category: .scalar, swiftType: field.type == .float ? "Float" : "Double", defaultValue: defaults.floating(field))
        case .int32, .sint32, .sfixed32, .int64, .sint64, .sfixed64, .uint32, .fixed32, .uint64, .fixed64:
            var type: String
            switch field.type {
            case .int32, .sint32, .sfixed32: type = "Int32"
            case .int64, .sint64, .sfixed64: type = "Int64"
            case .uint32, .fixed32: type = "UInt32"
            default: type = "UInt64"
            }
            if let size = honouredValue("int_size", element: "\(message.fullName).\(field.name)"),
               let narrowed = NanopbOptionPolicy.intSizeType(field.type, size) {
                type = narrowed
            }
            return ValueKind(category: .scalar, swiftType: type, defaultValue: field.defaultValue ?? "0")
        }
    }

    /// The plan of one field (not FT_IGNORE).
    func fieldPlan(_ field: FieldSchema, in message: MessageSchema) -> FieldPlan {
        let cName = Naming.cIdentifier(field.name)
        let value = valueKind(field, in: message)
        let shape: FieldPlan.Shape
        if let entry = field.typeName.flatMap(schema.message), entry.isMapEntry, field.isRepeated {
            let key = entry.mapKey!, mapValue = entry.mapValue!
            shape = .map(key: valueKind(key, in: entry), value: valueKind(mapValue, in: entry),
                         entryCName: cTypeName(entry.fullName), keyIsBool: key.type == .bool)
        } else if field.isRepeated {
            shape = .repeated
        } else if let (index, _) = realOneof(of: field, in: message) {
            shape = .oneofMember(index: index)
        } else {
            shape = .singular(presence: field.hasPresence)
        }
        return FieldPlan(field: field, cName: cName, value: value, shape: shape)
    }

    /// The plans of a message's fields outside real oneofs, in declaration order.
    func plainFields(of message: MessageSchema) -> [FieldPlan] {
        message.fields.filter { !isIgnored($0, in: message) && realOneof(of: $0, in: message) == nil }
            .map { fieldPlan($0, in: message) }
    }

    /// The plans of a message's real oneofs, in declaration order.
    func oneofPlans(of message: MessageSchema) -> [OneofPlan] {
        message.oneofs.enumerated().compactMap { index, oneof in
            guard !oneof.isSynthetic, !isIgnoredOneof(index, in: message) else { return nil }
            let anonymous = honouredValue("anonymous_oneof", element: "\(message.fullName).\(oneof.name)") == "true"
            let cName = Naming.cIdentifier(oneof.name)
            let members = oneof.fieldNumbers.compactMap { message.field(number: $0) }
                .filter { !isIgnored($0, in: message) }.map { fieldPlan($0, in: message) }
            return OneofPlan(index: index, oneof: oneof, unionCName: anonymous ? nil : cName, whichCName: "which_\(cName)",
                             typeName: oneofTypeName(messageName: swiftName(message.fullName), oneof: oneof), members: members)
        }
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
