// Paths inside the Wireproof tree as the tools show them: relative, so messages, logs and generated
// files carry no machine's absolute path.

/// Where a path lies relative to a root folder. A path is inside `root` only below `root + "/"`:
/// a sibling that merely starts with the same characters (`/work2` beside `/work`) is outside.
public enum RootPath {
    /// `path` relative to `root` when it lies below it, else nil.
    public static func inside(_ root: String, _ path: String) -> String? {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : nil
    }

    /// `path` relative to `root` when it lies below it, else `path` as given (for messages).
    public static func shown(_ path: String, under root: String) -> String {
        inside(root, path) ?? path
    }
}
