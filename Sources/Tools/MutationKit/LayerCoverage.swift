// Which files a layer holds, and the check that every script and hand-written Swift file is in a
// layer or in `Layer.unlayered`.

import Foundation

public enum LayerCoverage {
    /// The files (relative to `root`) that match `patterns`, in pattern order, each pattern's
    /// matches sorted. A `*` never matches a leading dot or crosses a `/` (glob(3)).
    public static func files(matching patterns: [String], root: String) -> [String] {
        patterns.flatMap { pattern in
            var found = glob_t()
            defer { globfree(&found) }
            guard glob(root + "/" + pattern, 0, nil, &found) == 0 else { return [String]() }
            return (0..<Int(found.gl_pathc)).compactMap { i in
                found.gl_pathv[i].map { String(String(cString: $0).dropFirst(root.count + 1)) }
            }.sorted()
        }
    }

    /// The files of `layer` under `root`.
    public static func files(of layer: Layer, root: String) -> [String] {
        files(matching: layer.patterns, root: root)
    }

    /// The scripts (`scripts/**/*.sh`, `*.py`) and hand-written Swift files (`Sources/**/*.swift`,
    /// not Sources/Generated) under `root` that no layer of `layers` and no `unlayered` pattern
    /// holds, sorted. Hidden files and folders are not looked at.
    public static func uncovered(root: String, layers: [Layer] = Layer.all,
                                 unlayered: [String] = Layer.unlayered.map(\.pattern)) -> [String] {
        var wanted = Set(walk(root: root, folder: "scripts").filter { $0.hasSuffix(".sh") || $0.hasSuffix(".py") })
        wanted.formUnion(walk(root: root, folder: "Sources").filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Sources/Generated/") })
        wanted.subtract(layers.flatMap { files(of: $0, root: root) })
        wanted.subtract(files(matching: unlayered, root: root))
        return wanted.sorted()
    }

    /// Every file under `root/folder`, relative to `root`, skipping names that start with a dot.
    static func walk(root: String, folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(
            at: URL(fileURLWithPath: root + "/" + folder), includingPropertiesForKeys: [.isRegularFileKey],
            options: [.skipsHiddenFiles]) else { return [] }
        var out: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            out.append(folder + "/" + url.path.dropFirst(URL(fileURLWithPath: root + "/" + folder).path.count + 1))
        }
        return out
    }
}
