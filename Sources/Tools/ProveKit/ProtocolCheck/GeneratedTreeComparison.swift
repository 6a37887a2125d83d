// A committed generated folder against its fresh regeneration: the files whose bytes differ, the
// files only the committed folder has (no longer generated) and those only the fresh one has
// (generated, not committed).

import Foundation

/// One file on which a committed generated folder and its regeneration disagree; the path is the
/// committed folder's path as the caller names it, then the file's path inside the folder.
public enum GeneratedFileDifference: Equatable, Sendable, CustomStringConvertible {
    /// Committed, but generation no longer writes it.
    case stale(String)
    /// Generation writes it, but it is not in the committed folder.
    case missing(String)
    /// In both, with different bytes.
    case differs(String)

    public var description: String {
        switch self {
        case .stale(let path): "stale (no longer generated): \(path)"
        case .missing(let path): "missing (generated, not committed): \(path)"
        case .differs(let path): "differs: \(path)"
        }
    }
}

enum GeneratedTreeComparison {
    /// The regular files below `folder`, relative to it (hidden ones included, as `find -type f`
    /// lists them), sorted by bytes; empty when the folder does not exist. Symbolic links are not
    /// followed or listed.
    static func files(in folder: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let path = walk.nextObject() as? String {
            if walk.fileAttributes?[.type] as? FileAttributeType == .typeRegular { found.append(path) }
        }
        return NanopbRenameList.byteSorted(Set(found))
    }

    /// Every file on which `committed` and `fresh` disagree: the stale ones, then the missing ones,
    /// then the changed ones, each group in path order. `name` is how the committed folder is
    /// named in the result (the path the user gave).
    static func compare(committed: String, fresh: String, name: String) -> [GeneratedFileDifference] {
        let old = files(in: committed), new = files(in: fresh)
        let oldSet = Set(old), newSet = Set(new)
        var result = old.filter { !newSet.contains($0) }.map { GeneratedFileDifference.stale(name + "/" + $0) }
        result += new.filter { !oldSet.contains($0) }.map { .missing(name + "/" + $0) }
        for file in old where newSet.contains(file) {
            let a = FileManager.default.contents(atPath: committed + "/" + file)
            let b = FileManager.default.contents(atPath: fresh + "/" + file)
            if a == nil || a != b { result.append(.differs(name + "/" + file)) }
        }
        return result
    }
}
