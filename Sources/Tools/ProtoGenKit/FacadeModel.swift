// The emitter's model of a generated facade file: declarations and their members as structure
// (what each member can do: read, write, mutate), rendered to text only at the end. The builder
// invariant (BuilderInvariant.swift) is checked on this model, never on the rendered text.

/// One member of a declaration, with what it can do.
struct FacadeMember: Equatable {
    enum Access: Equatable {
        /// `let`, `static let`, `case`, `typealias`, `init`: no storage access through accessors.
        case constant
        /// A read-only computed property.
        case getter
        /// A computed property with a setter: writes storage.
        case getterSetter
        /// A `mutating func`: writes storage.
        case mutatingFunc
    }
    let name: String
    let access: Access
    /// The member's source lines, relative to the declaration's indentation.
    let lines: [String]

    var writes: Bool { access == .getterSetter || access == .mutatingFunc }

    static func constant(_ name: String, _ line: String) -> FacadeMember { FacadeMember(name: name, access: .constant, lines: [line]) }

    /// `public var name: type`, read-only (one line when the body is one expression).
    static func getter(_ name: String, type: String, read: [String]) -> FacadeMember {
        if read.count == 1 { return FacadeMember(name: name, access: .getter, lines: ["public var \(name): \(type) { \(read[0]) }"]) }
        return FacadeMember(name: name, access: .getter, lines: ["public var \(name): \(type) {"] + read.map { "    " + $0 } + ["}"])
    }

    /// `public var name: type { get set }`.
    static func property(_ name: String, type: String, read: [String], write: [String]) -> FacadeMember {
        var lines = ["public var \(name): \(type) {"]
        if read.count == 1 { lines.append("    get { \(read[0]) }") } else { lines += ["    get {"] + read.map { "        " + $0 } + ["    }"] }
        lines += ["    set {"] + write.map { "        " + $0 } + ["    }", "}"]
        return FacadeMember(name: name, access: .getterSetter, lines: lines)
    }

    /// `public mutating func name() { body }` on one line.
    static func mutatingFunc(_ name: String, body: String) -> FacadeMember {
        FacadeMember(name: name, access: .mutatingFunc, lines: ["public mutating func \(name)() { \(body) }"])
    }
}

/// One top-level declaration of a facade file.
struct FacadeDeclaration: Equatable {
    enum Kind: Equatable {
        /// `extension CModule.c_type: NanopbStorage` (the storage conformance).
        case storageConformance
        /// `public typealias Name = NanopbMsg<c_type>` (one line, no members).
        case messageAlias
        /// An open enum struct.
        case openEnum
        /// A oneof's Swift enum.
        case oneofEnum
        /// A caseless enum holding nested type aliases.
        case namespace
        /// `extension Name { ... }`: the immutable message's getters.
        case messageExtension
        /// `extension Name.Builder { ... }`: the only place that may write storage.
        case builderExtension
        /// `extension CModule.c_type: NanopbDeviceLimited` (`--limits-from-options`): reads only.
        case deviceLimits
    }
    let kind: Kind
    /// Doc comment lines (without indentation).
    var doc: [String] = []
    /// The declaration line: `extension X.Builder {` for blocks, the whole declaration otherwise.
    let header: String
    var members: [FacadeMember] = []
    /// Whether the declaration is a `{ ... }` block closed after its members.
    var isBlock: Bool { header.hasSuffix("{") }
}

/// A generated facade file as the emitter built it.
struct FacadeFileModel: Equatable {
    /// File name in the output folder (`rtm_data.pb.swift`).
    let name: String
    /// Header lines (comments, imports, version check), rendered as they are.
    var prologue: [String]
    var declarations: [FacadeDeclaration]

    /// The file's text: prologue, then each declaration after a blank line.
    func render() -> GeneratedFile {
        var out = CodeWriter()
        for line in prologue { out.line(line) }
        for declaration in declarations {
            out.line()
            for line in declaration.doc { out.line(line) }
            guard declaration.isBlock else { out.line(declaration.header); continue }
            out.open(declaration.header)
            for member in declaration.members { for line in member.lines { out.line(line) } }
            out.close("}")
        }
        return GeneratedFile(name: name, contents: out.text)
    }
}
