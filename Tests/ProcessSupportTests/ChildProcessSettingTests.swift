// What a child starts with besides its streams: an added variable replaces the inherited one of
// that name (once in the child's environment), a bare program name is looked up on the PATH the
// child gets, a relative program path is taken in the child's folder, and a program that cannot be
// started is a launch error naming it, not an exit status.

import Foundation
import ProcessSupport
import Testing

@Suite struct ChildProcessSettingTests {
    /// A fresh folder holding an executable `wireproof-probe` that prints its folder and $PROBE.
    static func probeFolder() throws -> (folder: String, remove: () -> Void) {
        let folder = NSTemporaryDirectory() + "wireproof-setting-" + UUID().uuidString
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(fm.createFile(atPath: folder + "/wireproof-probe", contents: Data("#!/bin/sh\npwd\necho \"probe=$PROBE\"\n".utf8),
                              attributes: [.posixPermissions: 0o755]))
        return (folder, { try? fm.removeItem(atPath: folder) })
    }

    @Test func anAddedVariableReplacesTheInheritedOneOfThatName() throws {
        let (folder, remove) = try Self.probeFolder()
        defer { remove() }
        let log = folder + "/log"
        let inheritedHome = ProcessInfo.processInfo.environment["HOME"]
        try #require(inheritedHome != nil, "the test process has a HOME to replace")
        #expect(try ChildProcess.runIntoLog("/bin/sh", ["-c", #"env | grep -c '^HOME='; echo "$HOME""#], log: log,
                                            environment: ["HOME": "/replaced"]) == 0)
        #expect(try ChildProcess.readText(log) == "1\n/replaced\n")
        #expect(try ChildProcess.runIntoLog("/bin/sh", ["-c", #"echo "$HOME""#], log: log) == 0)
        #expect(try ChildProcess.readText(log) == inheritedHome! + "\n", "without added variables the child inherits")
        let captured = try ChildProcess.run("/bin/sh", ["-c", #"echo "$HOME""#], environment: ["HOME": "/captured"])
        #expect(String(decoding: captured.stdout, as: UTF8.self) == "/captured\n", "run with captured streams adds it too")
    }

    @Test func aBareNameIsLookedUpOnThePathTheChildGets() throws {
        let (folder, remove) = try Self.probeFolder()
        defer { remove() }
        let log = folder + "/log"
        #expect(try ChildProcess.runIntoLog("wireproof-probe", [], log: log,
                                            environment: ["PATH": folder + ":/usr/bin:/bin", "PROBE": "on path"]) == 0)
        #expect(try ChildProcess.readText(log).hasSuffix("probe=on path\n"))
        #expect(throws: ChildProcess.LaunchError.self) {
            try ChildProcess.runIntoLog("wireproof-probe", [], log: log, environment: ["PATH": "/usr/bin:/bin"])
        }
    }

    @Test func aRelativeProgramIsTakenInTheChildsFolder() throws {
        let (folder, remove) = try Self.probeFolder()
        defer { remove() }
        let log = folder + "/log"
        let pid = try ChildProcess.launchIntoLog("./wireproof-probe", [], log: log, in: folder, environment: ["PROBE": "here"])
        #expect(ChildProcess.waitForExit(pid) == 0)
        let real = try #require(realpath(folder, nil))
        defer { free(real) }
        #expect(try ChildProcess.readText(log) == String(cString: real) + "\nprobe=here\n")
    }

    @Test func aProgramThatCannotStartIsALaunchErrorNamingIt() throws {
        let (folder, remove) = try Self.probeFolder()
        defer { remove() }
        do {
            _ = try ChildProcess.runIntoLog(folder + "/absent", [], log: folder + "/log", environment: ["PROBE": "x"])
            Issue.record("a missing program started")
        } catch {
            #expect(error.description.contains(folder + "/absent"))
        }
        do {
            _ = try ChildProcess.runShowingOutput("./wireproof-probe", [], in: folder + "/no-such-folder")
            Issue.record("a child started in a missing folder")
        } catch {
            #expect(error.description.contains("wireproof-probe"))
        }
    }
}
