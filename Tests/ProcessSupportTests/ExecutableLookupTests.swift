// How a program is found: the first executable of that name in the PATH folders, in order, with
// /usr/bin when PATH is unset; and protoc, which falls back to Debian's /usr/bin/protoc.

import Foundation
import ProcessSupport
import Testing

@Suite struct ExecutableLookupTests {
    /// Two folders, each with an executable `tool`; the second also has a non-executable `plain`.
    static func folders() throws -> (first: String, second: String, remove: () -> Void) {
        let base = NSTemporaryDirectory() + "wireproof-lookup-" + UUID().uuidString
        let fm = FileManager.default
        for folder in ["a", "b"] {
            try fm.createDirectory(atPath: base + "/" + folder, withIntermediateDirectories: true)
            #expect(fm.createFile(atPath: base + "/" + folder + "/tool", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        }
        #expect(fm.createFile(atPath: base + "/b/plain", contents: Data(), attributes: [.posixPermissions: 0o644]))
        return (base + "/a", base + "/b", { try? fm.removeItem(atPath: base) })
    }

    @Test func theFirstFolderOnThePathThatHasTheProgramWins() throws {
        let (a, b, remove) = try Self.folders()
        defer { remove() }
        #expect(ChildProcess.executableOnPath("tool", path: a + ":" + b) == a + "/tool")
        #expect(ChildProcess.executableOnPath("tool", path: "/nonexistent:" + b + ":" + a) == b + "/tool")
        #expect(ChildProcess.executableOnPath("plain", path: a + ":" + b) == nil, "a file that is not executable is not a program")
        #expect(ChildProcess.executableOnPath("tool", path: "/nonexistent") == nil)
    }

    @Test func withoutAPathOnlyUsrBinIsSearched() {
        #expect(ChildProcess.executableOnPath("env", path: nil) == "/usr/bin/env")
        #expect(ChildProcess.executableOnPath("sh", path: nil) == "/usr/bin/sh" || !FileManager.default.fileExists(atPath: "/usr/bin/sh"))
    }

    @Test func protocIsTheFirstOnThePathElseDebians() throws {
        let (a, _, remove) = try Self.folders()
        defer { remove() }
        #expect(FileManager.default.createFile(atPath: a + "/protoc", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        #expect(ChildProcess.protoc(path: a + ":/usr/bin") == a + "/protoc")
        #expect(ChildProcess.protoc(path: "/nonexistent") == "/usr/bin/protoc")
    }
}
