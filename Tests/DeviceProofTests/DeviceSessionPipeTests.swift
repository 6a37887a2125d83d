// The device session's pipe I/O: a record is written whole, exactly the asked number of bytes is
// read however the writer splits them, end of file is nil, and a descriptor that cannot be written
// or read fails at once instead of being retried forever.

import Foundation
import Glibc
import Testing
@testable import DeviceProof
import TestSupport

@Suite struct DeviceSessionPipeTests {
    @Test func bytesWrittenInPiecesAreReadBackExactlyAndEndOfFileIsNil() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(DeviceSession.writeAll(ends[1], [1, 2, 3]))
        #expect(DeviceSession.writeAll(ends[1], [4, 5]))
        #expect(DeviceSession.writeAll(ends[1], []), "nothing to write is written")
        #expect(DeviceSession.writeAll(ends[1], [6]), "a single byte is a whole write")
        #expect(DeviceSession.read(ends[0], 6) == [1, 2, 3, 4, 5, 6])
        #expect(DeviceSession.writeAll(ends[1], [1, 2, 3, 4, 5]))
        #expect(DeviceSession.read(ends[0], 4) == [1, 2, 3, 4], "four bytes across two writes")
        close(ends[1])
        #expect(DeviceSession.read(ends[0], 2) == nil, "one byte left, then end of file: not two bytes")
    }

    @Test func aDescriptorThatCannotBeUsedFailsAtOnce() {
        #expect(!DeviceSession.writeAll(-1, [1]))
        #expect(DeviceSession.read(-1, 1) == nil)
    }

    /// A driver that exits before answering is a failure naming its status; one a signal ends is
    /// a crash of the request, answered with the signal.
    @Test func aDriverThatExitsIsAFailureAndOneASignalEndsIsACrash() throws {
        let folder = try TemporaryFolder("device-session")
        func driver(_ body: String) throws -> DeviceSession {
            let path = folder.path + "/driver-\(UUID().uuidString)"
            try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            return DeviceSession(executable: path)
        }
        let exits = try driver("exit 3")
        let error = #expect(throws: DeviceProofError.self) { try exits.answer(index: 0, bytes: [1]) }
        #expect(error?.description == "the device driver exited (status 3) instead of answering")
        #expect(try driver("kill -SEGV $$").answer(index: 0, bytes: [1]) == .crashed(11))
    }
}
