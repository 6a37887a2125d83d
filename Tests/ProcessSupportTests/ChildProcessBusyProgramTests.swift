// A program file still open for writing somewhere cannot be executed (ETXTBSY); the tests write
// scripts and run them while other tests spawn children, so a spawn waits for the writer briefly,
// whichever way the child is started (with its streams in files, into a log, in another folder,
// with added environment).

import Foundation
@testable import ProcessSupport
import Testing

@Suite struct ChildProcessBusyProgramTests {
    /// A script that echoes "started", written and still held open for writing; the writer is
    /// closed 150 ms from now, while a spawn of it is being refused, by a thread of its own: a
    /// Dispatch queue's work could wait behind the suites running in parallel for longer than the
    /// spawn retries (it once did, and the spawn gave up with ETXTBSY).
    static func busyScript() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-busy-\(UUID().uuidString)").path
        let writer = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(writer >= 0)
        let script = Array("#!/bin/sh\necho started\n".utf8)
        #expect(write(writer, script, script.count) == script.count)
        Thread.detachNewThread {
            usleep(150_000)
            close(writer)
        }
        return path
    }

    @Test func aProgramHeldOpenForWritingStartsOnceTheWriterClosesIt() throws {
        let path = try Self.busyScript()
        defer { unlink(path) }
        let result = try ChildProcess.run(path, [])
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "started\n")
    }

    @Test func aBusyProgramRunIntoALogWithAddedEnvironmentStartsOnceTheWriterCloses() throws {
        let path = try Self.busyScript(), log = path + ".log"
        defer { unlink(path); unlink(log) }
        #expect(try ChildProcess.runIntoLog(path, [], log: log, environment: ["WIREPROOF_BUSY": "1"]) == 0)
        #expect(try ChildProcess.readText(log) == "started\n")
    }

    @Test func aBusyProgramLaunchedInAnotherFolderStartsOnceTheWriterCloses() throws {
        let path = try Self.busyScript(), log = path + ".log"
        defer { unlink(path); unlink(log) }
        let pid = try ChildProcess.launchIntoLog(path, [], log: log, in: "/")
        #expect(ChildProcess.waitForExit(pid) == 0)
        #expect(try ChildProcess.readText(log) == "started\n")
    }
}
