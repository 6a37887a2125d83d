import Foundation
import Testing
import TestSupport

/// docs/DESIGN.md is the newcomer's map: its target tables must name every target Package.swift
/// declares (and nothing that is gone), and its deviation summary must list exactly the rows of
/// docs/deviations.md. These fail when either drifts, naming what is missing.
@Suite struct DesignDocumentTests {
    static let root = URL(fileURLWithPath: repositoryRoot)

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every `name:` of a `.target`, `.testTarget`, `.executableTarget` or `.systemLibrary` in the manifest.
    static func manifestTargets() throws -> Set<String> {
        let manifest = try text("Package.swift")
        let pattern = try NSRegularExpression(pattern: #"\.(target|testTarget|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let range = NSRange(manifest.startIndex..., in: manifest)
        return Set(pattern.matches(in: manifest, range: range).map { String(manifest[Range($0.range(at: 2), in: manifest)!]) })
    }

    /// Every back-quoted name in docs/DESIGN.md's "Targets" section, target tables and the test paragraph.
    static func documentedNames() throws -> Set<String> {
        let design = try text("docs/DESIGN.md")
        let section = try #require(design.range(of: "## Targets")).upperBound
        let end = design.range(of: "\n## ", range: section..<design.endIndex)?.lowerBound ?? design.endIndex
        let pattern = try NSRegularExpression(pattern: "`([A-Za-z][A-Za-z0-9_-]*)`")
        let body = String(design[section..<end])
        return Set(pattern.matches(in: body, range: NSRange(body.startIndex..., in: body)).map { String(body[Range($0.range(at: 1), in: body)!]) })
    }

    @Test func theTargetTablesNameEveryTargetOfThePackage() throws {
        let targets = try Self.manifestTargets()
        #expect(targets.count > 20, "the manifest scan found \(targets.sorted())")
        let documented = try Self.documentedNames()
        let missing = targets.subtracting(documented).sorted()
        #expect(missing.isEmpty, "docs/DESIGN.md's Targets section does not name: \(missing)")
    }

    @Test func theTargetTablesNameNoTargetThatIsGone() throws {
        let targets = try Self.manifestTargets()
        let design = try Self.text("docs/DESIGN.md")
        var gone: [String] = []
        for line in design.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.split(separator: "|")[0]
            for name in cell.split(separator: "`").enumerated().filter({ $0.offset % 2 == 1 }).map({ String($0.element) })
            where !name.contains("/") && !targets.contains(name) && !Self.executableNames.contains(name) {
                gone.append(name)
            }
        }
        #expect(gone.isEmpty, "docs/DESIGN.md names targets Package.swift does not declare: \(gone)")
    }

    /// Product spellings the tables give beside their target (`RuntimeExerciser` builds `runtime-exerciser`).
    static let executableNames: Set<String> = ["runtime-exerciser", "RuntimeExerciser"]

    @Test func theDeviationSummaryListsExactlyTheRowsOfTheDeviationsDocument() throws {
        func rowNumbers(_ text: String, bold: Bool) -> Set<Int> {
            var numbers: Set<Int> = []
            for line in text.split(separator: "\n") where line.hasPrefix("| ") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count > 2, !bold || cells[2].hasPrefix("**") else { continue }
                for part in cells[1].split(separator: ",") {
                    if let n = Int(part.trimmingCharacters(in: .whitespaces)) { numbers.insert(n) }
                }
            }
            return numbers
        }
        let documented = rowNumbers(try Self.text("docs/deviations.md"), bold: true)
        let design = try Self.text("docs/DESIGN.md")
        let summary = try #require(design.range(of: "## Deliberate differences (summary)"))
        let end = design.range(of: "\n## ", range: summary.upperBound..<design.endIndex)?.lowerBound ?? design.endIndex
        let summarised = rowNumbers(String(design[summary.upperBound..<end]), bold: false)
        #expect(documented.count >= 20, "rows read from docs/deviations.md: \(documented.sorted())")
        #expect(documented.subtracting(summarised).isEmpty, "DESIGN.md's summary lacks rows \(documented.subtracting(summarised).sorted())")
        #expect(summarised.subtracting(documented).isEmpty, "DESIGN.md's summary has rows deviations.md lacks: \(summarised.subtracting(documented).sorted())")
    }
}
