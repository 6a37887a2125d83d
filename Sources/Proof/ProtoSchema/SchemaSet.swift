#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every file, message and enum of a `FileDescriptorSet`, with lookups by fully qualified name.
///
/// Build one from the output of
/// `protoc --include_imports --descriptor_set_out=set.pb file.proto`; without `--include_imports`
/// imported types cannot be resolved and loading fails with `SchemaError.unresolvedType`.
public struct SchemaSet: Sendable {
    public let files: [FileSchema]
    /// Every message of every file, nested ones included, in declaration order.
    public let messages: [MessageSchema]
    /// Every enum of every file, nested ones included, in declaration order.
    public let enums: [EnumSchema]
    /// Every extension of every file (top-level and message-scoped).
    public let extensions: [FieldSchema]
    private let messageIndex: [String: Int]
    private let enumIndex: [String: Int]

    /// Decodes a serialized `google.protobuf.FileDescriptorSet`.
    public init(descriptorSet bytes: [UInt8]) throws(SchemaError) {
        var reader = DescriptorReader(bytes)
        var rawFiles: [RawFile] = []
        try reader.forEachField { (r: inout DescriptorReader, number, wire) throws(SchemaError) in
            if number == 1, wire == 2 {
                var sub = try r.nested()
                rawFiles.append(try RawFile(&sub))
            } else {
                try r.skip(wireType: wire)
            }
        }
        var builder = Builder()
        for file in rawFiles { try builder.add(file) }
        files = builder.files
        messages = builder.messages
        enums = builder.enums
        extensions = builder.extensions
        messageIndex = builder.messageIndex
        enumIndex = builder.enumIndex
        try validateTypeReferences()
    }

    /// Reads and decodes a descriptor set file. Read with stdio, not Foundation (whose file reading
    /// leaks a buffer on some paths, which LeakSanitizer reports): the same loop as
    /// ProcessSupport's `ChildProcess.readFile`, kept here so this module depends on nothing.
    public init(contentsOf path: String) throws(SchemaError) {
        guard let file = fopen(path, "rb") else { throw .unreadable(path: path, errno: errno) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes.append(contentsOf: chunk[0..<count])
            if count < chunk.count {
                if ferror(file) != 0 { throw .unreadable(path: path, errno: errno) }
                break
            }
        }
        try self.init(descriptorSet: bytes)
    }

    public func message(_ fullName: String) -> MessageSchema? { messageIndex[fullName].map { messages[$0] } }
    public func enumType(_ fullName: String) -> EnumSchema? { enumIndex[fullName].map { enums[$0] } }
    public func file(_ name: String) -> FileSchema? { files.first { $0.name == name } }

    /// Extensions that extend the given message.
    public func extensions(of messageFullName: String) -> [FieldSchema] {
        extensions.filter { $0.extendee == messageFullName }
    }

    private func validateTypeReferences() throws(SchemaError) {
        for field in messages.flatMap({ $0.fields + $0.extensions }) + extensions {
            if let typeName = field.typeName {
                let found = field.type == .enum ? enumIndex[typeName] != nil : messageIndex[typeName] != nil
                if !found { throw .unresolvedType(field: "\(field.scope).\(field.name)", typeName: typeName) }
            }
            // An extension of any type, scalar ones included, names the message it extends.
            if let extendee = field.extendee, messageIndex[extendee] == nil {
                throw .unresolvedType(field: "\(field.scope).\(field.name)", typeName: extendee)
            }
        }
    }
}

/// Flattens raw descriptors into the model, assigning full names and indexes.
private struct Builder {
    var files: [FileSchema] = []
    var messages: [MessageSchema] = []
    var enums: [EnumSchema] = []
    var extensions: [FieldSchema] = []
    var messageIndex: [String: Int] = [:]
    var enumIndex: [String: Int] = [:]

    mutating func add(_ raw: RawFile) throws(SchemaError) {
        let syntax: Syntax = raw.syntax == "proto3" ? .proto3 : raw.syntax == "editions" ? .editions : .proto2
        let prefix = raw.package.isEmpty ? "" : raw.package + "."
        let context = Context(file: raw.name, package: raw.package, syntax: syntax)
        for e in raw.enums { try addEnum(e, fullName: prefix + e.name, parent: nil, context) }
        for m in raw.messages { try addMessage(m, fullName: prefix + m.name, parent: nil, context) }
        let fileExtensions = raw.extensions.map { field($0, scope: raw.package, syntax: syntax) }
        extensions.append(contentsOf: fileExtensions)
        files.append(FileSchema(
            name: raw.name, package: raw.package, syntax: syntax, dependencies: raw.dependencies,
            publicDependencies: raw.publicDependencies.compactMap {
                raw.dependencies.indices.contains(Int($0)) ? raw.dependencies[Int($0)] : nil
            },
            messages: raw.messages.map { prefix + $0.name }, enums: raw.enums.map { prefix + $0.name },
            extensions: fileExtensions, swiftPrefix: raw.swiftPrefix))
    }

    struct Context { let file: String, package: String, syntax: Syntax }

    mutating func addEnum(_ raw: RawEnum, fullName: String, parent: String?, _ c: Context) throws(SchemaError) {
        guard enumIndex[fullName] == nil, messageIndex[fullName] == nil else { throw .duplicateName(fullName) }
        enumIndex[fullName] = enums.count
        enums.append(EnumSchema(
            fullName: fullName, name: raw.name, file: c.file, package: c.package, parent: parent,
            values: raw.values.map { EnumValueSchema(name: $0.0, number: $0.1) },
            allowAlias: raw.allowAlias, isClosed: c.syntax == .proto2))
    }

    mutating func addMessage(_ raw: RawMessage, fullName: String, parent: String?, _ c: Context) throws(SchemaError) {
        guard enumIndex[fullName] == nil, messageIndex[fullName] == nil else { throw .duplicateName(fullName) }
        let fields = raw.fields.map { field($0, scope: fullName, syntax: c.syntax) }
        let oneofs = raw.oneofNames.enumerated().map { index, name in
            let members = fields.filter { $0.oneofIndex == index }
            return OneofSchema(
                name: name, fieldNumbers: members.map(\.number),
                isSynthetic: members.count == 1 && members[0].isProto3Optional)
        }
        let scopedExtensions = raw.extensions.map { field($0, scope: fullName, syntax: c.syntax) }
        extensions.append(contentsOf: scopedExtensions)
        // Reserve the slot first so a message precedes its nested types in `messages`.
        let slot = messages.count
        messageIndex[fullName] = slot
        messages.append(MessageSchema(
            fullName: fullName, name: raw.name, file: c.file, package: c.package, parent: parent,
            syntax: c.syntax, fields: fields, oneofs: oneofs,
            nestedMessages: raw.nested.map { "\(fullName).\($0.name)" },
            nestedEnums: raw.enums.map { "\(fullName).\($0.name)" },
            isMapEntry: raw.mapEntry, extensions: scopedExtensions, extensionRanges: raw.extensionRanges))
        for e in raw.enums { try addEnum(e, fullName: "\(fullName).\(e.name)", parent: fullName, c) }
        for m in raw.nested { try addMessage(m, fullName: "\(fullName).\(m.name)", parent: fullName, c) }
    }

    func field(_ raw: RawField, scope: String, syntax: Syntax) -> FieldSchema {
        let type = FieldType(rawValue: Int(raw.type)) ?? .int32
        let label = FieldLabel(rawValue: Int(raw.label)) ?? .optional
        let repeated = label == .repeated
        let packed = repeated && type.isPackable
            && (syntax == .proto3 ? raw.packed != false : raw.packed == true)
        let presence = !repeated && (syntax != .proto3 || type == .message || type == .group
            || raw.oneofIndex != nil || raw.proto3Optional)
        return FieldSchema(
            name: raw.name, number: raw.number, label: label, type: type,
            typeName: raw.typeName.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 },
            oneofIndex: raw.oneofIndex.map(Int.init), isProto3Optional: raw.proto3Optional,
            packedOption: raw.packed, isPacked: packed, defaultValue: raw.defaultValue,
            jsonName: raw.jsonName ?? lowerCamel(raw.name), hasPresence: presence,
            extendee: raw.extendee.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }, scope: scope)
    }
}

/// protoc's json_name rule: drop underscores, upper-casing the letter after each.
private func lowerCamel(_ name: String) -> String {
    var out = ""
    var upperNext = false
    for ch in name {
        if ch == "_" { upperNext = true; continue }
        out.append(upperNext ? Character(ch.uppercased()) : ch)
        upperNext = false
    }
    return out
}
