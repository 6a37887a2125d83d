// The one argument parser of protogen's subcommands: each subcommand declares its flags (and
// every subcommand that builds a plan declares the same plan flags), the parser checks them.

/// How many values a flag takes.
enum FlagArity: Equatable {
    /// A switch: `--all-types`.
    case none
    /// One value: `--swift-out DIR`.
    case one
    /// One or more values up to the next flag: `--roots a.proto b.proto`; may repeat.
    case many
}

/// Parsed flags of one subcommand.
struct ParsedFlags {
    private(set) var values: [String: [String]] = [:]

    func has(_ flag: String) -> Bool { values[flag] != nil }
    func one(_ flag: String) -> String? { values[flag]?.last }
    func many(_ flag: String) -> [String] { values[flag] ?? [] }

    func required(_ flag: String, usage: String) throws(GeneratorError) -> String {
        guard let value = one(flag) else { throw .usage("\(flag) is required\n\(usage)") }
        return value
    }

    /// Parses `arguments` (after the subcommand name) against `flags`.
    static func parse(_ arguments: ArraySlice<String>, flags: [String: FlagArity], usage: String) throws(GeneratorError) -> ParsedFlags {
        var parsed = ParsedFlags()
        var rest = arguments
        while let flag = rest.popFirst() {
            guard let arity = flags[flag] else { throw .usage("unknown argument \(flag)\n\(usage)") }
            switch arity {
            case .none:
                parsed.values[flag] = []
            case .one:
                guard let value = rest.popFirst(), !value.hasPrefix("--") else { throw .usage("\(flag) needs a value\n\(usage)") }
                parsed.values[flag, default: []].append(value)
            case .many:
                var values: [String] = []
                while let next = rest.first, !next.hasPrefix("--") { values.append(next); rest.removeFirst() }
                if values.isEmpty { throw .usage("\(flag) needs at least one value\n\(usage)") }
                parsed.values[flag, default: []] += values
            }
        }
        return parsed
    }
}

/// The flags every subcommand that builds a plan accepts, and how they become `PlanInputs`.
enum PlanFlags {
    static let flags: [String: FlagArity] = [
        "--descriptor-set": .one,
        "--roots": .many,
        "--nanopb-options": .one,
        "--honour-options": .none,
        "--external-facade-module": .one,
        "--external-c-module": .one,
    ]

    static let usage = """
          plan inputs (the same for every subcommand, so all of them see one plan):
            --descriptor-set FILE.pb       protoc --include_imports output
            [--roots FILE.proto ...]       the user's files (default: all but descriptor.proto, nanopb.proto)
            [--nanopb-options REPORT.json] the schema's own nanopb options (scripts/proto-options.py)
            [--honour-options]             honour the options the facades can match, refuse the others
                                           (default: skip them all, printing each)
            [--external-facade-module M --external-c-module MC]
                                           files outside --roots come from these modules
        """

    static func inputs(_ parsed: ParsedFlags, selection: TypeSelection, usage: String) throws(GeneratorError) -> PlanInputs {
        var inputs = PlanInputs(selection: selection)
        if parsed.has("--roots") { inputs.roots = parsed.many("--roots") }
        if let report = parsed.one("--nanopb-options") { inputs.nanopbOptions = try NanopbOptionSetting.load(report) }
        inputs.optionsMode = parsed.has("--honour-options") ? .honour : .skip
        switch (parsed.one("--external-facade-module"), parsed.one("--external-c-module")) {
        case (nil, nil): break
        case let (facade?, c?): inputs.external = ExternalModules(facadeModule: facade, cModule: c)
        default: throw .usage("--external-facade-module and --external-c-module go together\n\(usage)")
        }
        return inputs
    }
}
