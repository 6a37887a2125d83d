import Foundation
import ProcessSupport
import Testing

/// `ChildProcess.run` (blocking and async), `runShowingOutput`, `launchPiped` and `readFile`: the
/// input reaches the child's stdin, stdout and stderr come back apart, the working directory and
/// added environment reach the child, a file is read whole across the reader's 64 KiB chunks, and
/// what cannot be started or read is a typed error naming it.
@Suite struct ChildProcessStreamsTests {
    private let echoBoth = #"read line; echo "got $line"; echo "to stderr" >&2; pwd; exit 4"#

    @Test func inputGoesToStdinAndTheStreamsComeBackApartWithTheStatus() throws {
        let result = try ChildProcess.run("/bin/sh", ["-c", echoBoth], input: Array("hello\n".utf8), in: "/usr")
        #expect(result.status == 4)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "got hello\n/usr\n")
        #expect(result.stderrText == "to stderr\n")
    }

    @Test func theAsyncRunGivesWhatTheBlockingOneGives() async throws {
        let result = try await ChildProcess.run("/bin/sh", ["-c", echoBoth], input: Array("async\n".utf8), in: "/tmp")
        #expect(result.status == 4)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "got async\n/tmp\n")
        #expect(result.stderrText == "to stderr\n")
    }

    @Test func runShowingOutputPassesTheFolderAndTheAddedEnvironment() throws {
        let script = #"test "$(pwd)" = /usr || exit 5; test "$A_VALUE" = one || exit 6; test "$B_VALUE" = two || exit 7; exit 9"#
        #expect(try ChildProcess.runShowingOutput("/bin/sh", ["-c", script], in: "/usr", environment: ["B_VALUE": "two", "A_VALUE": "one"]) == 9)
        #expect(try ChildProcess.runShowingOutput("/bin/sh", ["-c", #"test -z "$A_VALUE""#]) == 0)
    }

    @Test func aPipedChildEchoesWhatIsWrittenAndExitsAtEndOfInput() throws {
        let child = try ChildProcess.launchPiped("/bin/cat", [])
        let sent = Array("through the pipe\n".utf8)
        #expect(sent.withUnsafeBytes { write(child.input, $0.baseAddress, $0.count) } == sent.count)
        close(child.input)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        for _ in 0..<1000 {
            let count = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        close(child.output)
        #expect(received == sent)
        #expect(ChildProcess.waitForExit(child.pid) == 0)
    }

    @Test func aFileLongerThanOneChunkIsReadWhole() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("child-read-\(getpid())-\(UUID().uuidString)").path
        defer { unlink(path) }
        for size in [0, 1, 65_535, 65_536, 65_537, 2 * 65_536 + 7] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try ChildProcess.readFile(path) == bytes, "size \(size)")
        }
        try Data([0x61, 0xFF, 0x62]).write(to: URL(fileURLWithPath: path))
        #expect(try ChildProcess.readText(path) == "a\u{FFFD}b")
    }

    @Test func whatCannotBeStartedOrReadIsATypedErrorNamingIt() {
        #expect(throws: ChildProcess.LaunchError.self) { try ChildProcess.run("/nonexistent/tool", []) }
        do {
            _ = try ChildProcess.run("/nonexistent/tool", [])
        } catch {
            #expect(error.description == "cannot start /nonexistent/tool: No such file or directory")
        }
        do {
            _ = try ChildProcess.readFile("/nonexistent/file")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.description == "cannot open /nonexistent/file: No such file or directory")
        }
    }

    @Test func anExecutableIsFoundOnPathAndAMissingNameIsNot() {
        #expect(ChildProcess.executableOnPath("sh").map { FileManager.default.isExecutableFile(atPath: $0) && $0.hasSuffix("/sh") } == true)
        #expect(ChildProcess.executableOnPath("no-such-wireproof-tool") == nil)
    }
}
