import Foundation
import OracleCheck
import Testing
@testable import ProveKit
import TestSupport

/// What `wireproof oracle-check` and the oracle step of `wireproof prove` print around the
/// check: its progress lines, how many disagreements are listed, and a whole
/// oracle-check's first and last lines and exit status.
@Suite struct OracleCheckPrintedLinesTests {
    @Test func withoutASeedTheCommandAndTheLibraryBothUseSeedOne() throws {
        // The printed seed is what reproduces a run; the command takes its default from the library's.
        #expect(try OracleCheckCommand.parse([]).seed == 1)
        #expect(OracleCheckConfiguration(protoDirectory: "Protos").seed == 1)
    }

    @Test func oracleCheckListsTwentyDisagreementsThenHowManyMore() {
        let failures = (1...23).map { "DISAGREE case \($0)" }
        #expect(OracleCheckCommand.failureLines(failures) == Array(failures.prefix(20)) + ["... and 3 more disagreements"])
        let twenty = Array(failures.prefix(20))
        #expect(OracleCheckCommand.failureLines(twenty) == twenty, "exactly twenty: nothing left out, no count line")
        #expect(OracleCheckCommand.failureLines(Array(failures.prefix(21))) == twenty + ["... and 1 more disagreements"])
        #expect(OracleCheckCommand.failureLines([]).isEmpty)
    }

    @Test func proveListsTheFirstTwentyOracleDisagreementsMarkedFail() {
        let failures = (1...21).map { "DISAGREE case \($0)" }
        let lines = Prover.oracleFailureLines(failures)
        #expect(lines.count == 20)
        #expect(lines.first == "FAIL oracle vs protoc: DISAGREE case 1")
        #expect(lines.last == "FAIL oracle vs protoc: DISAGREE case 20")
        #expect(Prover.oracleFailureLines(["one"]) == ["FAIL oracle vs protoc: one"])
    }

    @Test func anAgreeingRunNamesItsSettingsFirstAndEndsWithTheCountsAndStatusZero() async throws {
        let work = try TemporaryFolder("oracle-check-lines")
        try Data("syntax = \"proto3\";\nmessage Tiny { int32 a = 1; string b = 2; }\n".utf8)
            .write(to: URL(fileURLWithPath: work.path + "/tiny.proto"))
        var configuration = OracleCheckConfiguration(protoDirectory: work.path, seed: 7)
        configuration.concurrency = 1
        configuration.randomCount = 100  // enough cases that a line every tenth differs from every eleventh
        let out = CollectedLines(), err = CollectedLines()
        #expect(await OracleCheckCommand.check(configuration, out: out.append, err: err.append) == 0)
        #expect(out.lines.first == "oracle-check: \(work.path), seed 7, 100 random messages, 1 protoc jobs")
        #expect(out.lines.count == 3, "settings, table, summary: \(out.lines)")
        let summary = try #require(out.lines.last)
        let agreed = try #require(summary.firstMatch(of: /^oracle-check: ([0-9]+) agreed, 0 disagreed, 0 excluded \(NaN payloads\), [0-9]+\.[0-9] s$/))
        let total = try #require(Int(agreed.1))
        #expect(total > 0)
        try #require(total >= 100)
        let tenth = total / 10
        #expect(err.lines == (1...total).filter { $0 % tenth == 0 || $0 == total }.map { "oracle-check: \($0)/\(total) checked" })
    }

    @Test func aSchemaProtocRejectsIsSaidOnStandardErrorWithStatusTwo() async throws {
        let work = try TemporaryFolder("oracle-check-bad")
        try Data("syntax = \"proto3\";\nmessage Bad { int32 a = ; }\n".utf8).write(to: URL(fileURLWithPath: work.path + "/bad.proto"))
        let out = CollectedLines(), err = CollectedLines()
        #expect(await OracleCheckCommand.check(OracleCheckConfiguration(protoDirectory: work.path), out: out.append, err: err.append) == 2)
        #expect(out.lines.count == 1, "only the settings line: \(out.lines)")
        #expect(err.lines.count == 1)
        #expect(err.lines.first?.hasPrefix("oracle-check: ") == true, "\(err.lines)")
    }
}
