import Testing
@testable import ProveKit

/// The protocol checks' tool runner: a tool that fails is named with its exit status and the first
/// line it printed (its errors first), one that cannot start with status -1.
@Suite struct CheckToolTests {
    @Test func aFailingToolIsNamedWithItsStatusAndFirstPrintedLine() {
        #expect(throws: ProtocolCheckError.tool(command: "sh", status: 3, output: "first error")) {
            try CheckTool.output("/bin/sh", ["-c", "echo listing; echo 'first error' >&2; echo 'second error' >&2; exit 3"])
        }
        #expect(throws: ProtocolCheckError.tool(command: "sh", status: 1, output: "")) {
            try CheckTool.output("/bin/sh", ["-c", "exit 1"])
        }
    }

    @Test func aToolThatRunsReturnsItsOutputFromTheFolderGiven() throws {
        #expect(try CheckTool.output("/bin/sh", ["-c", "pwd; echo ignored >&2"], in: "/usr") == "/usr\n")
    }

    @Test func aToolThatCannotStartHasStatusMinusOne() {
        do {
            _ = try CheckTool.output("/nonexistent/tool", [])
            Issue.record("a missing tool ran")
        } catch {
            guard case .tool(let command, let status, let output) = error else { Issue.record("\(error)"); return }
            #expect(command == "tool" && status == -1 && !output.isEmpty)
        }
    }
}
