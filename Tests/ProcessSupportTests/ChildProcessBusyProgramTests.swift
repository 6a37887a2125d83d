// A program file still open for writing somewhere cannot be executed (ETXTBSY); the tests write
// scripts and run them while other tests spawn children, so a spawn waits for the writer briefly.

import Foundation
@testable import ProcessSupport
import Testing

@Suite struct ChildProcessBusyProgramTests {
    @Test func aProgramHeldOpenForWritingStartsOnceTheWriterClosesIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-busy-\(UUID().uuidString)").path
        defer { unlink(path) }
        let writer = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(writer >= 0)
        let script = Array("#!/bin/sh\necho started\n".utf8)
        #expect(write(writer, script, script.count) == script.count)
        // Closed from another thread 150 ms from now, while the spawn below is being refused.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(150)) { close(writer) }
        let result = try ChildProcess.run(path, [])
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "started\n")
    }
}
