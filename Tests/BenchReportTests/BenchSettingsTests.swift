import Foundation
import Testing
@testable import BenchReport

/// What `make bench` does for a given environment: the knobs, the reproduce line, the folders.
@Suite struct BenchSettingsTests {
    @Test func anEmptyEnvironmentGivesTheDocumentedDefaults() throws {
        let s = try BenchSettings(environment: [:])
        #expect(s.rounds == 101 && s.batchMilliseconds == 4 && s.callgrindIterations == 300)
        #expect(s.temporary == "/tmp/wp-bench" && s.document == "docs/measurements.md")
        #expect(!s.clean && s.oneType == "Rtm_StreamChunk" && s.measureFuzzRate && s.measurePeakMemory)
        #expect(s.swift == "swift" && s.wireproofTool == nil)
        #expect(s.reproduceCommand == "make bench")
        #expect(s.results == "/tmp/wp-bench/out/results.json" && s.ratiosWork == "/tmp/wp-bench/out/ratios")
    }

    @Test func everyKnobIsHonoured() throws {
        let s = try BenchSettings(environment: [
            "BENCH_ROUNDS": "11", "BENCH_BATCH_MS": "2", "BENCH_CALLGRIND_ITERATIONS": "50", "BENCH_TMP": "/tmp/x",
            "BENCH_DOC": "other.md", "BENCH_CLEAN": "1", "BENCH_ONE_TYPE": "Rtm_Ping", "BENCH_FUZZ": "0", "BENCH_PEAK": "0",
            "SWIFT": "/opt/swift/bin/swift", "WIREPROOF_TOOL": "/bin/wp",
        ])
        #expect(s.rounds == 11 && s.batchMilliseconds == 2 && s.callgrindIterations == 50 && s.metricsIterations == 5)
        #expect(s.temporary == "/tmp/x" && s.document == "other.md" && s.clean && s.oneType == "Rtm_Ping")
        #expect(!s.measureFuzzRate && !s.measurePeakMemory && s.swift == "/opt/swift/bin/swift" && s.wireproofTool == "/bin/wp")
        #expect(s.reproduceCommand == "BENCH_ROUNDS=11 BENCH_BATCH_MS=2 BENCH_CALLGRIND_ITERATIONS=50 make bench")
        #expect(s.cleanedFolders == ["/tmp/x/build-default", "/tmp/x/build-stripped", "/tmp/x/protogen"])
    }

    @Test func anEmptyBenchDocMeansPrintOnly() throws {
        #expect(try BenchSettings(environment: ["BENCH_DOC": ""]).document == nil)
    }

    @Test func withoutValgrindNoCallgrindLegRunsButTheReproduceLineKeepsTheKnob() throws {
        let s = try BenchSettings(environment: ["BENCH_CALLGRIND_ITERATIONS": "30"], valgrindAvailable: false)
        #expect(s.callgrindIterations == 0)
        #expect(s.reproduceCommand == "BENCH_CALLGRIND_ITERATIONS=30 make bench")
    }

    @Test func theMetricsLoopsRunATenthOfTheIterationsAndAtLeastOne() throws {
        #expect(try BenchSettings(environment: [:]).metricsIterations == 30)
        #expect(try BenchSettings(environment: ["BENCH_CALLGRIND_ITERATIONS": "7"]).metricsIterations == 1)
    }

    @Test func aKnobThatIsNotACountIsATypedErrorNamingIt() {
        #expect(throws: BenchRunError.badKnob(name: "BENCH_ROUNDS", value: "many")) {
            try BenchSettings(environment: ["BENCH_ROUNDS": "many"])
        }
        #expect(throws: BenchRunError.badKnob(name: "BENCH_BATCH_MS", value: "-1")) {
            try BenchSettings(environment: ["BENCH_BATCH_MS": "-1"])
        }
        #expect(BenchRunError.badKnob(name: "BENCH_ROUNDS", value: "many").description
                == "BENCH_ROUNDS=many: expected a whole number >= 0")
    }

    @Test func onlyTheStrippedConfigurationAddsTheDeadStripFlags() throws {
        let s = try BenchSettings(environment: ["BENCH_TMP": "/t"])
        #expect(ReleaseBuildStep.buildCommand(s, package: "/p", .default)
                == ["swift", "build", "-c", "release", "--package-path", "/p", "--scratch-path", "/t/build-default"])
        #expect(ReleaseBuildStep.buildCommand(s, package: "/p", .stripped).suffix(12) == [
            "-Xswiftc", "-Xfrontend", "-Xswiftc", "-internalize-at-link", "-Xswiftc", "-Xfrontend", "-Xswiftc",
            "-function-sections", "-Xcc", "-ffunction-sections", "-Xcc", "-fdata-sections"][...])
        #expect(ReleaseBuildStep.peerSizeProbeCommand(s, wireproof: ["wp"], .default)
                == ["wp", "swiftprotobuf-peer", "size-probe", "--", "--scratch-path", "/t/swiftprotobuf-default"])
    }

    @Test func progressLinesCarryRightAlignedSeconds() {
        let clock = ProgressClock(name: "bench")
        #expect(clock.line("1/5 lines") == "[bench    0s] 1/5 lines")
    }
}
