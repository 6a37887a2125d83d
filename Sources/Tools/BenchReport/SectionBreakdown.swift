// Where the bytes of a stripped probe lie by section (`readelf -SW`), and what kind of symbol the
// bytes of an unused-but-linked facade are (`nm -S` of SizeOne against SizeOnePruned).

import Foundation

/// Section groups of text+data, in the report's order.
public enum SectionGroup: String, CaseIterable, Sendable {
    case code = "code (.text)"
    case unwind = "unwind tables (.eh_frame*)"
    case relocations = "relocations (.rela.*)"
    case data = "data (.rodata, .data.rel.ro, .data)"
    case swiftMetadata = "Swift metadata (swift5_*)"
    case dynamicLinking = "dynamic linking, headers"

    /// The group of the section called `name`.
    public init(section name: String) {
        if name.hasPrefix(".text") || name == ".init" || name == ".fini" {
            self = .code
        } else if name.hasPrefix(".eh_frame") || name.hasPrefix(".gcc_except_table") {
            self = .unwind
        } else if name.hasPrefix(".rela") || name.hasPrefix(".relr") {
            self = .relocations
        } else if [".rodata", ".data", ".init_array", ".fini_array", ".tdata"].contains(where: name.hasPrefix) {
            self = .data
        } else if name.hasPrefix("swift5_") || name == ".swift_modhash" {
            self = .swiftMetadata
        } else {
            self = .dynamicLinking
        }
    }
}

/// What the symbols an unused facade leaves in the binary are.
public enum SymbolKind: String, CaseIterable, Sendable {
    case metadata = "type metadata, value witnesses, conformances"
    case staticLets = "static lets (lazy init, once tokens)"
    case code = "code (accessors, thunks, specialisations)"
    case c = "C (descriptors, tables)"

    static let metadataSuffix = TextMatching.regex(
        "(Mn|MF|Mf|Ma|MB|Mc|MK|WV|WP|Wl|WL|Mb|Mr|Mi|MI|Ml|MP|Hn|MV|w[a-z]{2}|Oy|Oe|Oh|Ob|Wb)$")
    static let mergedMetadataSuffix = TextMatching.regex("(Mn|Mc|WV|WP|Ma)(Tm)?$")

    /// The kind of the symbol `name`: C unless Swift-mangled; then by the mangling's suffix.
    public init(symbol name: String) {
        if !(name.hasPrefix("$s") || name.hasPrefix("_$s")) {
            self = .c
        } else if name.hasSuffix("WZ") || name.hasSuffix("Wz") {
            self = .staticLets
        } else if TextMatching.contains(Self.metadataSuffix, name) || TextMatching.contains(Self.mergedMetadataSuffix, name) {
            self = .metadata
        } else {
            self = .code
        }
    }
}

/// Parsing of readelf and nm listings into section and kind totals.
public enum SectionBreakdown {
    static let sectionLine = TextMatching.regex(
        #"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+(\S*)\s+\d+"#)

    /// Bytes per group of the allocated, file-backed sections in `readelf -SW` output (what `size`
    /// counts as text+data): sections flagged `A` and not of type NOBITS.
    public static func sections(readelfOutput: String) -> [SectionGroup: Int] {
        var groups = Dictionary(uniqueKeysWithValues: SectionGroup.allCases.map { ($0, 0) })
        for line in TextMatching.lines(readelfOutput) {
            guard let m = TextMatching.matchAtStart(sectionLine, String(line)), m[3].contains("A"), m[1] != "NOBITS",
                  let size = Int(m[2], radix: 16) else { continue }
            groups[SectionGroup(section: m[0]), default: 0] += size
        }
        return groups
    }

    /// Name → size of the sized symbols in `nm -S --defined-only` output (a repeated name keeps its last size).
    public static func sizedSymbols(nmOutput: String) -> [String: Int] {
        var table: [String: Int] = [:]
        for line in TextMatching.lines(nmOutput) {
            let p = TextMatching.fields(line, max: 4)
            if p.count == 4, let size = Int(p[1], radix: 16), size > 0 { table[String(p[3])] = size }
        }
        return table
    }

    /// Bytes per kind of the sized symbols of `mine` whose names `theirs` lacks.
    public static func kinds(of mine: [String: Int], missingFrom theirs: [String: Int]) -> [SymbolKind: Int] {
        var kinds = Dictionary(uniqueKeysWithValues: SymbolKind.allCases.map { ($0, 0) })
        for (name, size) in mine where theirs[name] == nil {
            kinds[SymbolKind(symbol: name), default: 0] += size
        }
        return kinds
    }

    /// `size`'s text, data and bss columns (its last line).
    public static func berkeley(sizeOutput: String) -> (text: Int, data: Int, bss: Int)? {
        guard let last = sizeOutput.split(separator: "\n").last else { return nil }
        let f = TextMatching.fields(last)
        guard f.count >= 3, let text = Int(f[0]), let data = Int(f[1]), let bss = Int(f[2]) else { return nil }
        return (text, data, bss)
    }
}
