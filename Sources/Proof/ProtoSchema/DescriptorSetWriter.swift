/// Writes the descriptor sets nanopb's generator reads, one per file that gets C: the file with the
/// dependencies that also get C, each file rewritten to the generation plan's view of it.
///
/// It works on the protoc output's encoding, not on the schema model, so every descriptor field
/// the model does not keep (json names, reserved ranges, standard options) reaches nanopb as protoc
/// wrote it. What changes, and nothing else:
/// - renames (a C-keyword field, oneof or package-less top-level type gets the plan's C spelling),
///   with every `type_name` that points at a renamed type or into it updated;
/// - extension declarations are dropped, at file and message level (custom options, and the
///   schema's own extensions, which the facades do not carry);
/// - option values above 999 (extensions of the `*Options` messages: `(nanopb)` annotations and
///   every other custom option) are dropped, so nanopb sees only the options file it is handed;
/// - dependencies without C are dropped (and public/weak indices renumbered), so no generated
///   header includes a file that was not generated.
///
/// Field order within each message is kept; the result is deterministic for a given input.
public struct DescriptorSetWriter {
    /// One rename the plan asks for (`Naming.cIdentifier`): `scope` is the message holding a field
    /// or oneof, or the type itself.
    public struct Rename: Sendable {
        public enum Kind: Sendable { case field, oneof, type }
        public var kind: Kind
        public var scope: String
        public var protoName: String
        public var cName: String

        public init(kind: Kind, scope: String, protoName: String, cName: String) {
            self.kind = kind; self.scope = scope; self.protoName = protoName; self.cName = cName
        }
    }

    private struct File {
        let name: String
        let package: String
        let dependencies: [String]
        let fields: [RawWireField]
    }

    private let files: [File]
    private let fieldRenames: [String: [String: String]]
    private let oneofRenames: [String: [String: String]]
    /// `.old.full.Name` → `.new.full.Name`, longest first so a nested name matches its own entry.
    private let typeRenames: [(old: String, new: String)]

    /// Parses `descriptorSet` (a serialized `FileDescriptorSet`, as `protoc --include_imports` writes).
    public init(descriptorSet: [UInt8], renames: [Rename]) throws(SchemaError) {
        var reader = DescriptorReader(descriptorSet)
        var files: [File] = []
        while !reader.isAtEnd {
            let field = try reader.field()
            guard field.number == 1, field.wireType == 2 else { continue }
            let fields = try RawWireField.parse(field.value)
            var name = "", package = ""
            var dependencies: [String] = []
            for f in fields where f.wireType == 2 {
                switch f.number {
                case 1: name = f.text
                case 2: package = f.text
                case 3: dependencies.append(f.text)
                default: break
                }
            }
            files.append(File(name: name, package: package, dependencies: dependencies, fields: fields))
        }
        self.files = files
        var fieldRenames: [String: [String: String]] = [:], oneofRenames: [String: [String: String]] = [:]
        var typeRenames: [(String, String)] = []
        for rename in renames {
            switch rename.kind {
            case .field: fieldRenames[rename.scope, default: [:]][rename.protoName] = rename.cName
            case .oneof: oneofRenames[rename.scope, default: [:]][rename.protoName] = rename.cName
            case .type: typeRenames.append(("." + rename.scope, "." + rename.cName))
            }
        }
        self.fieldRenames = fieldRenames
        self.oneofRenames = oneofRenames
        self.typeRenames = typeRenames.sorted { $0.0.count > $1.0.count }
    }

    /// The files of the set, in protoc's order (dependencies first).
    public var fileNames: [String] { files.map(\.name) }

    /// A `FileDescriptorSet` holding `file` last, preceded by every file it reaches through
    /// dependencies in `withC` (in the set's order), each rewritten. nanopb writes C for the last
    /// file of a set only.
    public func set(for file: String, withC: Set<String>) throws(SchemaError) -> [UInt8] {
        guard let index = files.firstIndex(where: { $0.name == file }) else {
            throw .malformed(reason: "the plan names \(file), which is not in the descriptor set", offset: 0)
        }
        var reached: Set<String> = []
        var stack = files[index].dependencies.filter(withC.contains)
        while let dependency = stack.popLast() {
            guard reached.insert(dependency).inserted, let found = files.first(where: { $0.name == dependency }) else { continue }
            stack += found.dependencies.filter(withC.contains)
        }
        var out = WireOutput()
        for candidate in files where reached.contains(candidate.name) && candidate.name != file {
            out.message(1, rewritten(candidate, withC: withC))
        }
        out.message(1, rewritten(files[index], withC: withC))
        return out.bytes
    }

    private func rewritten(_ file: File, withC: Set<String>) -> [UInt8] {
        let kept = file.dependencies.filter(withC.contains)
        let prefix = file.package.isEmpty ? "" : file.package + "."
        var out = WireOutput()
        for field in file.fields {
            switch (field.number, field.wireType) {
            case (3, 2), (10, _), (11, _), (7, 2): continue  // dependencies (rewritten below), extensions
            case (4, 2):  // message_type
                let name = field.messageName
                let renamedName = file.package.isEmpty ? renamedType("." + name).dropFirst() : Substring(name)
                out.message(4, message(field.value, fullName: prefix + name, newName: String(renamedName)))
            case (5, 2):  // enum_type
                let name = field.messageName
                let renamedName = file.package.isEmpty ? String(renamedType("." + name).dropFirst()) : name
                out.message(5, enumType(field.value, newName: renamedName))
            case (8, 2): out.message(8, options(field.value))
            default: out.raw(field)
            }
        }
        for dependency in kept { out.string(3, dependency) }
        let old = file.dependencies
        for field in file.fields where field.number == 10 || field.number == 11 {
            for index in field.varints {
                guard index >= 0, Int(index) < old.count, let at = kept.firstIndex(of: old[Int(index)]) else { continue }
                out.varint(field.number, UInt64(at))
            }
        }
        return out.bytes
    }

    private func message(_ bytes: ArraySlice<UInt8>, fullName: String, newName: String) -> [UInt8] {
        let fields = (try? RawWireField.parse(bytes)) ?? []
        var out = WireOutput()
        for field in fields {
            switch (field.number, field.wireType) {
            case (1, 2): out.string(1, newName)
            case (2, 2): out.message(2, self.field(field.value, scope: fullName))
            case (3, 2):
                let name = field.messageName
                out.message(3, message(field.value, fullName: fullName + "." + name, newName: name))
            case (4, 2): out.message(4, enumType(field.value, newName: field.messageName))
            case (6, 2): continue  // extensions declared inside the message
            case (7, 2): out.message(7, options(field.value))
            case (8, 2): out.message(8, oneof(field.value, scope: fullName))
            default: out.raw(field)
            }
        }
        return out.bytes
    }

    private func field(_ bytes: ArraySlice<UInt8>, scope: String) -> [UInt8] {
        var out = WireOutput()
        for field in (try? RawWireField.parse(bytes)) ?? [] {
            switch (field.number, field.wireType) {
            case (1, 2): out.string(1, fieldRenames[scope]?[field.text] ?? field.text)
            case (6, 2): out.string(6, renamedType(field.text))
            case (8, 2): out.message(8, options(field.value))
            default: out.raw(field)
            }
        }
        return out.bytes
    }

    private func oneof(_ bytes: ArraySlice<UInt8>, scope: String) -> [UInt8] {
        var out = WireOutput()
        for field in (try? RawWireField.parse(bytes)) ?? [] {
            switch (field.number, field.wireType) {
            case (1, 2): out.string(1, oneofRenames[scope]?[field.text] ?? field.text)
            case (2, 2): out.message(2, options(field.value))
            default: out.raw(field)
            }
        }
        return out.bytes
    }

    private func enumType(_ bytes: ArraySlice<UInt8>, newName: String) -> [UInt8] {
        var out = WireOutput()
        for field in (try? RawWireField.parse(bytes)) ?? [] {
            switch (field.number, field.wireType) {
            case (1, 2): out.string(1, newName)
            case (2, 2):  // values: their options lose custom options too
                var value = WireOutput()
                for f in (try? RawWireField.parse(field.value)) ?? [] {
                    if f.number == 3, f.wireType == 2 { value.message(3, options(f.value)) } else { value.raw(f) }
                }
                out.message(2, value.bytes)
            case (3, 2): out.message(3, options(field.value))
            default: out.raw(field)
            }
        }
        return out.bytes
    }

    /// An `*Options` message without its extension fields (numbers 1000 and up: custom options).
    private func options(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out = WireOutput()
        for field in (try? RawWireField.parse(bytes)) ?? [] where field.number < 1000 { out.raw(field) }
        return out.bytes
    }

    private func renamedType(_ name: String) -> String {
        for (old, new) in typeRenames where name == old || name.hasPrefix(old + ".") {
            return new + name.dropFirst(old.count)
        }
        return name
    }
}

/// One field of an encoded message, kept as it was read.
struct RawWireField {
    let number: Int
    let wireType: UInt8
    let value: ArraySlice<UInt8>

    static func parse(_ bytes: ArraySlice<UInt8>) throws(SchemaError) -> [RawWireField] {
        var reader = DescriptorReader(Array(bytes))
        var fields: [RawWireField] = []
        while !reader.isAtEnd {
            let (number, wireType, value) = try reader.field()
            fields.append(RawWireField(number: number, wireType: wireType, value: value))
        }
        return fields
    }

    var text: String { String(decoding: value, as: UTF8.self) }

    /// The `name` (field 1) of a message-typed value, or "" when it has none.
    var messageName: String {
        ((try? RawWireField.parse(value)) ?? []).first { $0.number == 1 && $0.wireType == 2 }?.text ?? ""
    }

    /// The varints of a varint field or of a packed run.
    var varints: [Int64] {
        var reader = DescriptorReader(Array(value))
        var values: [Int64] = []
        if wireType == 2 {
            while !reader.isAtEnd, let v = try? reader.varint() { values.append(Int64(bitPattern: v)) }
        } else if wireType == 0, let v = try? reader.varint() {
            values.append(Int64(bitPattern: v))
        }
        return values
    }
}

/// Protobuf wire output for the writer: tags, varints, length-delimited values.
struct WireOutput {
    private(set) var bytes: [UInt8] = []

    mutating func varintValue(_ value: UInt64) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    mutating func varint(_ number: Int, _ value: UInt64) {
        varintValue(UInt64(number) << 3)
        varintValue(value)
    }

    mutating func message(_ number: Int, _ value: [UInt8]) {
        varintValue(UInt64(number) << 3 | 2)
        varintValue(UInt64(value.count))
        bytes += value
    }

    mutating func string(_ number: Int, _ text: String) { message(number, Array(text.utf8)) }

    /// A field as it was read (the length prefix rebuilt for length-delimited values).
    mutating func raw(_ field: RawWireField) {
        if field.wireType == 2 {
            message(field.number, Array(field.value))
        } else {
            varintValue(UInt64(field.number) << 3 | UInt64(field.wireType))
            bytes += field.value
        }
    }
}
