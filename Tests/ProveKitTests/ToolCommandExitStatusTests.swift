import ArgumentParser
import Testing
@testable import ProveKit

/// The commands' exit status when they cannot do their work: 2 for a setup error of prove and
/// nanopb-symbols (as their help says), 1 for link-check, whose only failure status is 1; the
/// failure is said in one line on standard error, nothing on standard output.
@Suite struct ToolCommandExitStatusTests {
    @Test func proveOnAMissingSchemaFolderExitsTwo() async {
        #expect(await WireproofCommand.main(["prove", "--proto-dir", "/nonexistent-wireproof-schema", "--no-device"]) == 2)
    }

    @Test func proveSaysWhichSchemaFolderIsMissing() async throws {
        var err: [String] = []
        await #expect(throws: ExitCode(2)) {
            try await ProveCommand.parse(["--proto-dir", "/nonexistent-wireproof-schema"]).run(err: { err.append($0) })
        }
        #expect(err == ["prove: schema folder /nonexistent-wireproof-schema does not exist"])
    }

    @Test func linkCheckIntoAScratchThatCannotBeMadeExitsOne() async {
        #expect(await WireproofCommand.main(["link-check", "--scratch", "/dev/null/linked"]) == 1)
    }

    @Test func linkCheckSaysWhyItFailedInOneLineOnStandardError() throws {
        var out: [String] = [], err: [String] = []
        #expect(throws: ExitCode(1)) {
            try LinkCheckCommand.parse(["--scratch", "/dev/null/linked"]).run(out: { out.append($0) }, err: { err.append($0) })
        }
        #expect(out.isEmpty)
        #expect(err.count == 1)
        #expect(err.first?.hasPrefix("link-check: ") == true && err.first!.count > "link-check: ".count, "\(err)")
    }

    @Test func nanopbSymbolsWithACompilerThatCannotRunExitsTwo() async {
        #expect(await WireproofCommand.main(["nanopb-symbols", "--check", "--cc", "/nonexistent/cc"]) == 2)
    }
}
