import ArgumentParser
import CommandLineSupport
import Testing
@testable import ProveKit

/// How a command line the parser stops ends (CommandExit, shared by every Wireproof tool): help
/// goes to standard output with status 0; a usage error goes to standard error, naming the wrong
/// flag and followed by the usage, with status 2.
@Suite struct CommandExitMessageTests {
    private func parserStop(_ arguments: [String]) -> (any Error)? {
        do { _ = try WireproofCommand.parseAsRoot(arguments) } catch { return error }
        return nil
    }

    @Test func helpIsPrintedOnStandardOutputWithStatusZero() throws {
        let error = CleanExit.helpRequest(OracleCheckCommand.self)
        var out: [String] = [], err: [String] = []
        #expect(CommandExit.status(for: error, of: WireproofCommand.self, out: { out.append($0) }, err: { err.append($0) }) == 0)
        #expect(err.isEmpty)
        #expect(out.count == 1)
        #expect(out.first?.contains("USAGE: wireproof oracle-check") == true, "\(out)")
        #expect(out.first?.contains("--proto-dir") == true)
    }

    @Test func aUsageErrorIsPrintedOnStandardErrorWithStatusTwo() throws {
        let error = try #require(parserStop(["oracle-check", "--seed", "x"]))
        var out: [String] = [], err: [String] = []
        #expect(CommandExit.status(for: error, of: WireproofCommand.self, out: { out.append($0) }, err: { err.append($0) }) == 2)
        #expect(out.isEmpty)
        #expect(err.count == 1)
        #expect(err.first?.hasPrefix("Error: ") == true, "\(err)")
        #expect(err.first?.contains("--seed") == true && err.first?.contains("Usage: wireproof oracle-check") == true, "\(err)")
    }

    @Test func aValidationFailureOfACommandIsStatusTwoToo() throws {
        let error = try #require(parserStop(["nanopb-symbols"]))
        var err: [String] = []
        #expect(CommandExit.status(for: error, of: WireproofCommand.self, out: { _ in }, err: { err.append($0) }) == 2)
        #expect(err.first?.hasPrefix("Error: give exactly one of --write, --check") == true, "\(err)")
    }
}
