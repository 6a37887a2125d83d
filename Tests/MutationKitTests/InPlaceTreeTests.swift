import Foundation
import ProcessSupport
import Testing
@testable import MutationKit

/// Judging in the working tree itself: refused unless git reports the tree clean, and after a
/// mutant `restore` leaves it clean again, the edit undone and what the run created removed,
/// ignored files kept.
@Suite struct InPlaceTreeTests {
    /// A git repository with one committed file and an ignored folder.
    private func repository() throws -> String {
        let root = NSTemporaryDirectory() + "mutation-in-place-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/src", withIntermediateDirectories: true)
        try "let x = 1\n".write(toFile: root + "/src/a.swift", atomically: true, encoding: .utf8)
        try "/build/\n".write(toFile: root + "/.gitignore", atomically: true, encoding: .utf8)
        let git = ["-c", "user.name=t", "-c", "user.email=t@localhost"]
        for arguments in [["init", "-q"], ["add", "-A"], ["commit", "-qm", "one"]] {
            #expect(try ChildProcess.run("/usr/bin/git", git + arguments, in: root).status == 0)
        }
        return root
    }

    private func refusal(_ root: String) -> String? {
        do { try ScratchTree.requireClean(root: root); return nil } catch { return "\(error)" }
    }

    @Test func aCleanTreeIsJudgedInPlaceAndIgnoredFilesDoNotCount() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(refusal(root) == nil)
        try FileManager.default.createDirectory(atPath: root + "/build", withIntermediateDirectories: true)
        try "object".write(toFile: root + "/build/a.o", atomically: true, encoding: .utf8)
        #expect(refusal(root) == nil)
    }

    @Test func aChangedOrUntrackedFileRefusesNamingIt() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "let x = 2\n".write(toFile: root + "/src/a.swift", atomically: true, encoding: .utf8)
        #expect(refusal(root) == "the working tree is not clean (git status:  M src/a.swift)")
        try ScratchTree.restore(tree: root)
        try "new".write(toFile: root + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(refusal(root) == "the working tree is not clean (git status: ?? notes.txt)")
    }

    @Test func restoreUndoesAMutantAndWhatItsRunCreatedButKeepsIgnoredFiles() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "let x = 2\n".write(toFile: root + "/src/a.swift", atomically: true, encoding: .utf8)
        try "made by the run".write(toFile: root + "/src/new.swift", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/build", withIntermediateDirectories: true)
        try "object".write(toFile: root + "/build/a.o", atomically: true, encoding: .utf8)
        try ScratchTree.restore(tree: root)
        #expect(refusal(root) == nil)
        #expect(try String(contentsOfFile: root + "/src/a.swift", encoding: .utf8) == "let x = 1\n")
        #expect(!FileManager.default.fileExists(atPath: root + "/src/new.swift"))
        #expect(FileManager.default.fileExists(atPath: root + "/build/a.o"))
    }
}
