// The planted bugs of `wiremutate plant-legs` and `wireproof fuzz planted` (scripts/mutation/plants.txt), applied in a
// scratch copy made by `ScratchTree.prepare`. The copy's `.git/planted.json` records each planted
// file's original text, so `unplant` can write it back; only `prepare` creates that record, so
// nothing but a scratch copy is ever planted.

import Foundation

/// Why a planting command stopped; `status` is the exit status (2: no such plant).
public struct PlantError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public let status: Int32
    init(_ description: String, status: Int32 = 1) { self.description = description; self.status = status }
}

/// One plant: the file (relative to the tree), the exact whole lines replaced, what replaces them.
public struct Plant: Equatable {
    public let name: String
    public let path: String
    public let old: String
    public let new: String
}

/// A planted file as recorded: its original text, and whether the Swift callers were touched.
struct PlantRecord: Codable {
    let path: String
    let text: String
    let touch: Bool
}

public enum Plants {
    /// The plants of a plants.txt text, in file order (its header gives the format): a `plant NAME
    /// FILE  what` line, then `-` lines (replaced) and `+` lines (put there), each with its newline.
    /// A `plant` line without a name and a file is skipped with its lines, which never join the
    /// plant before it.
    public static func parse(_ text: String) -> [Plant] {
        var plants: [Plant] = []
        var inPlant = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw + "\n"
            if line.hasPrefix("plant ") {
                let words = line.split(whereSeparator: \.isWhitespace)
                inPlant = words.count >= 3
                guard inPlant else { continue }
                plants.append(Plant(name: String(words[1]), path: String(words[2]), old: "", new: ""))
            } else if inPlant, let last = plants.last, line.hasPrefix("-") || line.hasPrefix("+") {
                let body = String(line.dropFirst())
                plants[plants.count - 1] = line.hasPrefix("-")
                    ? Plant(name: last.name, path: last.path, old: last.old + body, new: last.new)
                    : Plant(name: last.name, path: last.path, old: last.old, new: last.new + body)
            }
        }
        return plants
    }

    static let recordPath = ".git/planted.json"

    /// The record of the plants in `tree`; refuses a folder `ScratchTree.prepare` did not make.
    static func record(in tree: String) throws(PlantError) -> [PlantRecord] {
        guard let data = FileManager.default.contents(atPath: tree + "/" + recordPath),
              let record = try? JSONDecoder().decode([PlantRecord].self, from: data) else {
            throw PlantError("\(tree) is not a scratch copy made by `wiremutate tree`")
        }
        return record
    }

    static func write(_ record: [PlantRecord], in tree: String) throws(PlantError) {
        guard let data = try? JSONEncoder().encode(record),
              FileManager.default.createFile(atPath: tree + "/" + recordPath, contents: data) else {
            throw PlantError("cannot write \(tree)/\(recordPath)")
        }
    }

    /// Applies `plant` in `tree`: its old lines must be in the file exactly once, and the file inside
    /// `tree` (not behind a link out of it, such as a linked .deps). A plant in a `@_transparent`
    /// Swift function marks the callers changed (unless `touch` is false).
    public static func apply(_ plant: Plant, in tree: String, touch: Bool = true) throws(PlantError) {
        let record = try record(in: tree)
        let target = tree + "/" + plant.path
        guard let real = realPath(target), let root = realPath(tree), real.hasPrefix(root + "/"),
              let text = try? String(contentsOfFile: target, encoding: .utf8) else {
            throw PlantError("\(plant.name): \(plant.path) is no file inside \(tree) (a plant in .deps needs `tree --private-deps`)")
        }
        let padded = "\n" + text
        let found = padded.components(separatedBy: "\n" + plant.old).count - 1
        guard found == 1, let at = padded.range(of: "\n" + plant.old) else {
            throw PlantError("\(plant.name): its lines are in \(plant.path) \(found) times, not once (the code changed?)")
        }
        // The match starts at the newline before the old lines, or at the padding when they open the file.
        let before = String(padded[..<at.lowerBound].dropFirst()) + (at.lowerBound == padded.startIndex ? "" : "\n")
        let line = before.filter { $0 == "\n" }.count + 1
        let touches = touch && SwiftCallers.inTransparentFunction(tree: tree, path: plant.path, line: line)
        try write(record + [PlantRecord(path: plant.path, text: text, touch: touches)], in: tree)
        try writeFile(target, before + plant.new + String(padded[at.upperBound...]))
        if touches { SwiftCallers.touch(tree: tree) }
    }

    /// Writes back every file a plant changed in `tree` (newly dated, so the next build sees it).
    public static func unplant(in tree: String) throws(PlantError) {
        let record = try record(in: tree)
        for entry in record.reversed() { try writeFile(tree + "/" + entry.path, entry.text) }
        if record.contains(where: \.touch) { SwiftCallers.touch(tree: tree) }
        try write([], in: tree)
    }

    /// Applies `plant` and undoes it: the file must change, then come back byte for byte.
    public static func check(_ plant: Plant, in tree: String) throws(PlantError) {
        let path = tree + "/" + plant.path
        let before = FileManager.default.contents(atPath: path) ?? Data()
        try apply(plant, in: tree, touch: false)
        let after = FileManager.default.contents(atPath: path)
        try unplant(in: tree)
        guard after != before, FileManager.default.contents(atPath: path) == before else {
            throw PlantError("\(plant.name): \(path) did not change, or did not come back as it was")
        }
    }

    static func writeFile(_ path: String, _ text: String) throws(PlantError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw PlantError("cannot write \(path)")
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// `@_transparent` bodies are inlined into their callers even in debug builds, and SwiftPM's
/// incremental build does not recompile those callers when only the body changes: a mutant or plant
/// there must mark the callers changed, or the build would judge stale code.
public enum SwiftCallers {
    /// Whether line `line` (1-based) of `path` in `tree` is inside a function marked `@_transparent`
    /// (on the `func` line or the three lines above the nearest `func` at or above it; a comment
    /// naming the attribute does not count).
    public static func inTransparentFunction(tree: String, path: String, line: Int) -> Bool {
        guard path.hasSuffix(".swift"), let text = try? String(contentsOfFile: tree + "/" + path, encoding: .utf8) else { return false }
        let lines = Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix(line))
        guard let index = lines.lastIndex(where: { $0.contains(" func ") || $0.drop(while: \.isWhitespace).hasPrefix("func ") }) else {
            return false
        }
        // Only the attribute counts, not a comment that names it.
        return lines[max(0, index - 3)...index].contains {
            $0.contains("@_transparent") && !$0.drop(while: \.isWhitespace).hasPrefix("//")
        }
    }

    /// Marks every Swift file under Sources and Tests outside the runtime changed.
    public static func touch(tree: String) {
        for folder in ["Sources", "Tests"] {
            for path in LayerCoverage.walk(root: tree, folder: folder)
            where path.hasSuffix(".swift") && !path.contains("/NanopbRuntime/") {
                _ = utimes(tree + "/" + path, nil)
            }
        }
    }
}
