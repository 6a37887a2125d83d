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
//
// One concern per file: this one holds the inputs, the plan's state and the order of decisions
// (init); FacadePlan+Naming (Swift and C names), +Options (the schema's nanopb options),
// +Selection (types, files, refusals, extensions) and +Members (members and field kinds).

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

package struct FacadePlan {
    package let schema: SchemaSet
    package let inputs: PlanInputs
    /// Files of the user's schema.
    package internal(set) var roots: Set<String> = []
    /// Swift type name by fully qualified proto name (messages, enums), for every type.
    package internal(set) var swiftNames: [String: String] = [:]
    /// Messages and enums to emit facades for (in files generated here), by full name.
    package internal(set) var emitted: Set<String> = []
    /// Messages emitted as a caseless `enum` namespace instead of a message typealias.
    package internal(set) var namespaces: Set<String> = []
    /// Files that get C, here or in the external module, in the descriptor set's (dependency) order.
    package internal(set) var cClosure: [String] = []
    /// Files whose C this target holds (`cClosure` minus the external module's files).
    package internal(set) var cFiles: [String] = []
    /// Honoured options, each with its element; skipped ones with their reasons.
    package internal(set) var honoured: [NanopbOptionSetting] = []
    package internal(set) var skipped: [(setting: NanopbOptionSetting, reason: String)] = []
    var refused: [(setting: NanopbOptionSetting, reason: String)] = []
    /// Fields left out of the C struct (honoured FT_IGNORE), by message full name.
    package internal(set) var ignoredFields: [String: Set<Int32>] = [:]

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
}
