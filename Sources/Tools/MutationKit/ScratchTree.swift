// The scratch copy mutants and plants are applied in: the working tree's tracked and untracked (not
// ignored) files, and the ignored folders asked for, in a git repository of its own, so a mutant is
// undone by `git checkout` + `git clean`. A refresh undoes a plant left behind, deletes what the
// working tree no longer has and keeps ignored files (build folders, setup.sh's staged runtime), so
// builds stay incremental; files are copied with their times (`cp -p`), so an unchanged file is not
// rebuilt.

import Foundation
import ProcessSupport

/// A step of preparing or restoring the copy that failed; names the command.
public struct ScratchTreeError: Error, CustomStringConvertible {
    public let description: String
}

public enum ScratchTree {
    /// Copies or refreshes `root`'s working tree into `tree`. `.deps` is linked to the root's; with
    /// `privateDeps` what setup.sh unpacks (.deps/nanopb, .deps/protobuf) is copied and the rest
    /// linked, so nothing done there reaches the working tree's own. `also`: git-ignored folders of
    /// the root copied too (replacing the copy's).
    public static func prepare(root: String, tree: String, privateDeps: Bool = false, also: [String] = []) throws {
        let fm = FileManager.default
        let listed = try output("/usr/bin/git", ["ls-files", "-z", "-co", "--exclude-standard"], in: root)
        let files = Set(listed.split(separator: "\0").map(String.init)).filter { fm.fileExists(atPath: root + "/" + $0) }
        try fm.createDirectory(atPath: tree, withIntermediateDirectories: true)
        if fm.fileExists(atPath: tree + "/.git") {
            if fm.fileExists(atPath: tree + "/" + Plants.recordPath) { try Plants.unplant(in: tree) }
            let before = try output("/usr/bin/git", ["ls-files", "-z"], in: tree)
            for gone in Set(before.split(separator: "\0").map(String.init)).subtracting(files) {
                unlink(tree + "/" + gone)
            }
        }
        // cp -p --parents keeps each file's times and folder; batches keep argv short.
        let sorted = files.sorted()
        for start in stride(from: 0, to: sorted.count, by: 400) {
            try check("/bin/cp", ["-p", "--parents", "-t", tree, "--"] + sorted[start..<min(start + 400, sorted.count)], in: root)
        }
        for folder in also {
            try check("/bin/rm", ["-rf", tree + "/" + folder], in: root)
            try check("/bin/cp", ["-a", "--parents", "-t", tree, "--", folder], in: root)
        }
        try linkDeps(root: root, tree: tree, privateDeps: privateDeps)
        let git = ["-c", "user.name=mutation", "-c", "user.email=mutation@localhost"]
        try check("/bin/rm", ["-rf", tree + "/.git"], in: tree)
        for args in [["init", "-q"], ["add", "-A"], ["commit", "-qm", "baseline"]] {
            try check("/usr/bin/git", git + args, in: tree)
        }
        try Plants.write([], in: tree)
    }

    /// `.deps` in the copy: a link to the root's, or (private) copies of what setup.sh writes into.
    static func linkDeps(root: String, tree: String, privateDeps: Bool) throws {
        let fm = FileManager.default
        let deps = tree + "/.deps", shared = root + "/.deps"
        let isLink = (try? fm.destinationOfSymbolicLink(atPath: deps)) != nil
        var present = isLink || fm.fileExists(atPath: deps)
        if present && isLink == privateDeps {  // the other kind, from an earlier run
            try check("/bin/rm", ["-rf", deps], in: tree)
            present = false
        }
        if !privateDeps {
            if !present { try fm.createSymbolicLink(atPath: deps, withDestinationPath: shared) }
            return
        }
        try fm.createDirectory(atPath: deps, withIntermediateDirectories: true)
        for entry in try fm.contentsOfDirectory(atPath: shared).sorted() {
            let target = deps + "/" + entry
            if (try? fm.destinationOfSymbolicLink(atPath: target)) != nil || fm.fileExists(atPath: target) { continue }
            if entry == "nanopb" || entry == "protobuf" {
                try check("/bin/cp", ["-a", shared + "/" + entry, target], in: tree)
            } else {
                try fm.createSymbolicLink(atPath: target, withDestinationPath: shared + "/" + entry)
            }
        }
    }

    /// Undoes everything in the copy since its baseline commit, or in a working tree judged in place
    /// since `requireClean` passed (ignored files stay).
    public static func restore(tree: String) throws {
        try check("/usr/bin/git", ["checkout", "-q", "--", "."], in: tree)
        try check("/usr/bin/git", ["clean", "-fdq"], in: tree)
    }

    /// Refuses, naming what git reports, unless the working tree at `root` is clean: no tracked file
    /// changed, no untracked file outside .gitignore. Judging in place undoes each mutant with
    /// `restore`, which would undo or delete the user's own work in any other tree.
    public static func requireClean(root: String) throws {
        let status = try output("/usr/bin/git", ["status", "--porcelain"], in: root)
        let lines = status.split(separator: "\n")
        guard lines.isEmpty else {
            throw ScratchTreeError(description: "the working tree is not clean (git status: \(lines.prefix(3).joined(separator: "; "))"
                                   + "\(lines.count > 3 ? "; ..." : ""))")
        }
    }

    /// The commit `root` is at, marked `+changes` when tracked files differ from it.
    public static func describe(root: String) -> String {
        let head = (try? output("/usr/bin/git", ["rev-parse", "--short", "HEAD"], in: root))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let dirty = (try? output("/usr/bin/git", ["status", "--porcelain", "--untracked-files=no"], in: root)) ?? ""
        return (head.isEmpty ? "unknown" : head) + (dirty.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "" : "+changes")
    }

    static func output(_ executable: String, _ arguments: [String], in directory: String) throws -> String {
        let result = try ChildProcess.run(executable, arguments, in: directory)
        guard result.status == 0 else {
            throw ScratchTreeError(description: "`\(([executable] + arguments).joined(separator: " "))` failed: \(result.stderrText)")
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }

    static func check(_ executable: String, _ arguments: [String], in directory: String) throws {
        _ = try output(executable, arguments, in: directory)
    }
}
