import Foundation

/// A folder of generated Swift. The generator owns the `*.pb.swift` files in it that start with
/// its header (`headerPrefix`), and nothing else: those are rewritten (only when the text changed,
/// so builds stay incremental) or removed when no longer generated.
package struct OutputFolder {
    let path: String
    let headerPrefix: String

    package init(path: String, headerPrefix: String = generatedHeaderPrefix) {
        self.path = path
        self.headerPrefix = headerPrefix
    }

    package func replaceGenerated(with files: [GeneratedFile]) throws(GeneratorError) -> [String] {
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw .io(path: path, reason: "cannot create folder: \(error)")
        }
        var report: [String] = []
        let keep = Set(files.map(\.name))
        let existing = (try? fm.contentsOfDirectory(atPath: path)) ?? []
        for name in existing.sorted() where name.hasSuffix(".pb.swift") && !keep.contains(name) {
            let full = path + "/" + name
            guard let data = fm.contents(atPath: full),
                  String(decoding: data.prefix(200), as: UTF8.self).hasPrefix(headerPrefix) else { continue }
            do { try fm.removeItem(atPath: full) } catch { throw .io(path: full, reason: "cannot remove stale file: \(error)") }
            report.append("removed \(full)")
        }
        for file in files {
            let full = path + "/" + file.name
            let data = Data(file.contents.utf8)
            if fm.contents(atPath: full) == data { continue }
            guard fm.createFile(atPath: full, contents: data) else { throw .io(path: full, reason: "cannot write") }
            report.append("wrote \(full)")
        }
        return report
    }
}
