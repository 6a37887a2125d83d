// Which part of the shipped layer each sized symbol of a probe executable belongs to (`nm -S`).
// The object files of the build say which C symbols are nanopb's and which are generated; Swift
// symbols are told apart by what their mangled names spell.

import Foundation

/// The groups a probe's bytes are attributed to, in the report's order.
public enum SymbolGroup: String, CaseIterable, Sendable {
    /// Defined in an object file of CNanopb.
    case nanopbC = "nanopb C runtime"
    /// Defined in an object file of a schema's C target (descriptors, tables).
    case generatedC = "generated C"
    /// A Swift symbol naming `13NanopbRuntime` and no schema type.
    case nanopbRuntime = "NanopbRuntime"
    /// A Swift symbol whose mangling names a facade module (`12BundledProto`).
    case facades = "facades"
    /// A Swift symbol of another module specialised for a schema C struct (`So15_rtm_DataPacketV`).
    case facadeGenerics = "facade generics"
    /// The probe's own module.
    case program = "program"
    /// Other Swift: standard library specialisations and thunks emitted into the binary.
    case otherSwift = "other Swift"
    /// crt start-up, libc glue.
    case other = "other"
    /// text+data that no sized symbol covers (unwind tables, relocations, metadata records, literals).
    case notInSymbol = "not in a symbol"
}

/// Attributes symbols to `SymbolGroup`s, knowing which names the build's C objects define.
public struct SymbolAttributor: Sendable {
    /// The facade modules of the bench package (their mangled spelling is searched for).
    public static let facadeModules = ["BundledProto", "PrunedOne", "PrunedPacket"]
    /// The schema C modules of the bench package (their objects define the generated C).
    public static let schemaCModules = ["BundledProtoC", "PrunedOneC", "PrunedPacketC"]

    /// The names the objects of every schema C module under `release` (a SwiftPM `release`
    /// folder, one `<module>.build` folder each) define: the generated C.
    static func schemaCSymbols(release: String) throws -> Set<String> {
        try schemaCModules.reduce(into: Set<String>()) {
            $0.formUnion(try BinaryTools.definedSymbols(objectsUnder: release + "/\($1).build"))
        }
    }

    let nanopbSymbols: Set<String>
    let generatedSymbols: Set<String>
    /// Matches the mangling of an imported schema C struct: `So<len>_<name>V`.
    let structPattern: NSRegularExpression
    let facadeTokens: [String]

    /// `nanopbSymbols`: names CNanopb's objects define; `generatedSymbols`: names the schema C
    /// targets' objects define (nanopb descriptors end in `_msg`: their stems are the C structs).
    public init(nanopbSymbols: Set<String>, generatedSymbols: Set<String>) {
        self.nanopbSymbols = nanopbSymbols
        self.generatedSymbols = generatedSymbols
        let structs = Set(generatedSymbols.filter { $0.hasSuffix("_msg") }.map { String($0.dropLast(4)) })
        // Longest first, so a struct whose name extends another's is tried before it.
        let alternatives = structs.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
            .map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        structPattern = TextMatching.regex(#"So\d+_?(?:"# + (alternatives.isEmpty ? "(?!)" : alternatives) + ")V")
        facadeTokens = Self.facadeModules.map { "\($0.count)\($0)" }
    }

    /// The group of the symbol `name` in the executable of the probe module `program`.
    public func group(of name: String, program: String) -> SymbolGroup {
        if name == "\(program)_main" { return .program }
        if nanopbSymbols.contains(name) { return .nanopbC }
        if generatedSymbols.contains(name) { return .generatedC }
        guard name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S") else { return .other }
        if facadeTokens.contains(where: name.contains) { return .facades }
        if TextMatching.contains(structPattern, name) { return .facadeGenerics }
        if name.contains("13NanopbRuntime") { return .nanopbRuntime }
        if name.contains("\(program.count)\(program)") { return .program }
        return .otherSwift
    }

    /// Bytes per group of `nm -S --defined-only` output of the probe `program`'s executable.
    /// Symbols without a size, absolute, weak-undefined or debug symbols are skipped, and aliases
    /// (the same address and size under several names) count once. "not in a symbol" stays 0 here.
    public func attribute(nmOutput: String, program: String) -> [SymbolGroup: Int] {
        var groups = Dictionary(uniqueKeysWithValues: SymbolGroup.allCases.map { ($0, 0) })
        var seen = Set<[Int]>()
        for line in TextMatching.lines(nmOutput) {
            let parts = TextMatching.fields(line, max: 4)
            guard parts.count == 4, !Self.skippedTypes.contains(String(parts[2])),
                  let address = Int(parts[0], radix: 16), let size = Int(parts[1], radix: 16) else { continue }
            if size == 0 || !seen.insert([address, size]).inserted { continue }
            groups[group(of: String(parts[3]), program: program), default: 0] += size
        }
        return groups
    }

    /// nm symbol types that are not code or data the binary carries.
    static let skippedTypes: Set<String> = ["a", "A", "w", "W", "v", "V", "U", "N"]

    /// The names defined by `nm --defined-only` output (third field of each line).
    public static func definedNames(nmOutput: String) -> Set<String> {
        var names = Set<String>()
        for line in TextMatching.lines(nmOutput) {
            let parts = TextMatching.fields(line)
            if parts.count >= 3 { names.insert(String(parts[2])) }
        }
        return names
    }
}
