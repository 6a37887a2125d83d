// Moving generated code from a staging folder into a build's source folder so that the build tool
// sees a change only where there is one.

import Foundation

/// Writes generated files into a source folder only where their content changed.
enum GeneratedFolderSync {
    /// Makes `destination` hold exactly the files of `staging` (subfolders included): a file whose
    /// bytes are already in place is not touched (its modification time stays, so SwiftPM does not
    /// recompile it), a changed or new one is written, and a file `staging` lacks is removed.
    /// Returns the destination-relative paths it wrote or removed.
    @discardableResult
    static func sync(from staging: String, to destination: String) throws -> [String] {
        let files = FileManager.default
        try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
        let wanted = Set(regularFiles(under: staging))
        var changed: [String] = []
        for path in wanted.sorted() {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(staging)/\(path)"))
            let target = "\(destination)/\(path)"
            if files.contents(atPath: target) == bytes { continue }
            try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: target))
            changed.append(path)
        }
        for path in regularFiles(under: destination).sorted() where !wanted.contains(path) {
            try files.removeItem(atPath: "\(destination)/\(path)")
            changed.append(path)
        }
        return changed
    }

    /// Paths of the regular files under `folder`, relative to it.
    static func regularFiles(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(folder)/\(path)", isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(path)
            }
        }
        return found
    }
}
