import TestSupport
import ArgumentParser
import Foundation
import ProofSupport
import Testing
@testable import ProveKit

/// `wireproof fuzz planted` and `wireproof fuzz rate`: their command lines and knobs, and the
/// figures and table rows they make of the fuzzers' output, without building or running a fuzzer.
@Suite struct FuzzMeasurementTests {
    @Test func plantedTakesRunsLimitTargetsAndBugsAndNamesAWrongTarget() async throws {
        let planted = try #require(try WireproofCommand.parseAsRoot(["fuzz", "planted", "--runs", "1", "--limit", "30", "no-length-bound"])
            as? FuzzCommand.Planted)
        let settings = try planted.settings()
        #expect(settings.runs == 1 && settings.limit == 30 && settings.bugs == ["no-length-bound"])
        #expect(settings.targets == [.decode, .differential])
        let defaults = try #require(try WireproofCommand.parseAsRoot(["fuzz", "planted", "--targets", "decode"]) as? FuzzCommand.Planted)
        #expect(try defaults.settings().bugs == PlantedFuzzSettings.defaultBugs)
        #expect(try defaults.settings().targets == [.decode])
        do {
            _ = try WireproofCommand.parseAsRoot(["fuzz", "planted", "--targets", "decode decoder"])
            Issue.record("an unknown target parsed")
        } catch {
            #expect(WireproofCommand.fullMessage(for: error).contains("unknown target 'decoder' in --targets"))
        }
        #expect(await WireproofCommand.main(["fuzz", "planted", "--runs", "0"]) == 2)
        #expect(await WireproofCommand.main(["fuzz", "rate", "--fixed"]) == 2)
    }

    @Test func theFuzzPlantsAreAllInThePlantsFile() throws {
        let text = try String(contentsOfFile: FuzzMeasurementTests.root + "/scripts/mutation/plants.txt", encoding: .utf8)
        for bug in PlantedFuzzSettings.defaultBugs { #expect(text.contains("plant \(bug) "), "\(bug)") }
    }

    static let root = repositoryRoot

    @Test func aRunFindsTheBugOnlyThroughAnArtifactAndNamesTheFirstReport() {
        #expect(PlantedFuzzTable.isArtifact("crash-0a1b") && PlantedFuzzTable.isArtifact("leak-ff") && PlantedFuzzTable.isArtifact("oom-1"))
        #expect(!PlantedFuzzTable.isArtifact("log") && !PlantedFuzzTable.isArtifact("corpus"))
        let log = "#2 INITED\n==9==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6\nSUMMARY: ...\n"
        #expect(PlantedFuzzTable.report(in: log) == "ERROR: AddressSanitizer: heap-buffer-overflow")
        #expect(PlantedFuzzTable.report(in: "Fatal error: broken property [error-offset]: x") == "broken property [error-offset]")
        #expect(PlantedFuzzTable.report(in: "==1== deadly signal") == "crash")
    }

    @Test func theMedianCountsRunsThatFoundNothingAsTheLimit() {
        let found = { (s: Double) in PlantedFuzzResult(seconds: s, found: true, report: "ERROR: LeakSanitizer: detected") }
        let none = PlantedFuzzResult(seconds: 61.2, found: false, report: nil)
        #expect(PlantedFuzzTable.median([found(0.44), found(6.9), found(1.6)], limit: 60) == "1.6")
        #expect(PlantedFuzzTable.median([none, found(6.9), none], limit: 60) == ">60")
        #expect(PlantedFuzzTable.median([none, found(0.5), found(0.7)], limit: 60) == "0.7")
        #expect(PlantedFuzzTable.median([found(2.0), found(1.0)], limit: 60) == "1.0")
        #expect(PlantedFuzzTable.cell(none, limit: 30) == ">30")
        #expect(PlantedFuzzTable.row(bug: "submsg-leak", target: "decode", results: [found(0.7), none, found(0.66)], limit: 60)
            == "submsg-leak        decode          2/3 0.7s       ERROR: LeakSanitizer: detected")
        #expect(PlantedFuzzTable.row(bug: "varint-off-by-one", target: "decode", results: [none], limit: 60).hasSuffix("0/1 >60s       none"))
        #expect(PlantedFuzzTable.header == "bug                target        found median     report (last run)")
    }

    @Test func rateKnobsComeFromTheEnvironmentAndFlagsWin() throws {
        let defaults = try RateSettings(environment: [:])
        #expect(defaults.seconds == 60 && defaults.core == 0 && defaults.campaigns && defaults.repeatCount == 200 && defaults.coverage == "runtime")
        let knobs = try RateSettings(environment: ["FUZZ_RATE_CAMPAIGN": "0", "FUZZ_RATE_CORE": "1", "REPEAT": "5", "FUZZ_COVERAGE": "all"])
        #expect(!knobs.campaigns && knobs.core == 1 && knobs.repeatCount == 5 && knobs.coverage == "all")
        #expect(throws: FuzzError("REPEAT must be a whole number >= 0, not 'many'")) { try RateSettings(environment: ["REPEAT": "many"]) }
        let rate = try #require(try WireproofCommand.parseAsRoot(["fuzz", "rate", "10", "--fixed-only", "--core", "1"]) as? FuzzCommand.Rate)
        #expect(rate.seconds == 10 && rate.fixedOnly && rate.core == 1)
    }

    @Test func theCPUTimeOfAReapedChildIsCounted() throws {
        let before = FuzzRate.childrenCPUSeconds()
        let busy = try ChildProcess.run("/bin/sh", ["-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"])
        #expect(busy.status == 0)
        #expect(FuzzRate.childrenCPUSeconds() - before > 0.05)
    }

    @Test func rateFiguresAreTruncatedAsTheDocsQuoteThem() {
        #expect(FuzzRateFigures.counters(in: "INFO: Loaded 1 modules   (3197 inline 8-bit counters): 3197 [0x1, 0x2)\n") == 3197)
        #expect(FuzzRateFigures.counters(in: "INFO: Seed: 1\n") == nil)
        #expect(FuzzRateFigures.sizesSummary([20, 5, 200, 9]) == "4 new inputs, mean 58 B, median 9 B")
        #expect(FuzzRateFigures.sizesSummary([]) == "")
        #expect(FuzzRateFigures.rate(executions: 1000, cpuSeconds: 3) == 333)
        #expect(FuzzRateFigures.rate(executions: 1000, cpuSeconds: 0) == 0)
        #expect(FuzzRateFigures.ratio(6.81, 7.55) == "0.90")
        #expect(FuzzRateFigures.ratio(7.13, 6.55) == "1.08")
        #expect(FuzzRateFigures.ratio(1, 0) == "?")
        #expect(FuzzRateFigures.seconds(3.1) == "3.10")
        #expect(FuzzRateFigures.fixedRatioLine(facadeSeconds: 7.55, plainCSeconds: 6.81)
            == "fuzz-rate: fixed inputs, facade / plain C throughput = 0.90")
    }
}
