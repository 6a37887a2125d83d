import ArgumentParser
import CommandLineSupport
import Foundation
import Testing
@testable import ProveKit
import TestSupport


/// `wireproof fuzz`: its command line, the plans and libFuzzer command lines it runs, and the files
/// it names, without building or running a fuzzer.
@Suite struct FuzzWorkflowTests {
    private let workspace = FuzzWorkspace(root: "/tree")

    @Test func eachSubcommandParsesItsArgumentsAndHelpExitsZero() async throws {
        let run = try #require(try WireproofCommand.parseAsRoot(["fuzz", "run", "differential", "300"]) as? FuzzCommand.Run)
        #expect(run.target == .differential && run.seconds == 300)
        let replay = try #require(try WireproofCommand.parseAsRoot(["fuzz", "replay", "decode", "a", "b"]) as? FuzzCommand.Replay)
        #expect(replay.target == .decode && replay.files == ["a", "b"])
        #expect(try (WireproofCommand.parseAsRoot(["fuzz", "smoke"]) as? FuzzCommand.Smoke)?.seconds == 30)
        let subcommands = ["build", "run", "smoke", "minimize", "triage", "corpus", "replay", "descriptor-set", "generate", "planted", "rate"]
        // Listed by name: `fuzz NAME --help` exits 0 for an unknown NAME too (it prints `fuzz`'s help).
        #expect(FuzzCommand.configuration.subcommands.map { $0._commandName } == subcommands)
        for subcommand in subcommands {
            #expect(await WireproofCommand.main(["fuzz", subcommand, "--help"]) == 0, "\(subcommand)")
        }
    }

    @Test func aWrongTargetOrArgumentCountIsAUsageErrorNamingIt() async {
        do {
            _ = try WireproofCommand.parseAsRoot(["fuzz", "run", "decoder", "5"])
            Issue.record("an unknown target parsed")
        } catch {
            let message = WireproofCommand.fullMessage(for: error)
            #expect(message.contains("'decoder'"))
            #expect(message.contains("'decode', 'differential' or 'structure'"))
        }
        #expect(await WireproofCommand.main(["fuzz", "run", "decode"]) == 2)
        #expect(await WireproofCommand.main(["fuzz", "run", "decode", "soon"]) == 2)
        #expect(await WireproofCommand.main(["fuzz", "replay", "decode"]) == 2)
        #expect(await WireproofCommand.main(["fuzz", "triage", "structure"]) == 2)
    }

    @Test func theTargetsAreTheFuzzPackagesProducts() throws {
        #expect(FuzzTarget.allCases.map(\.rawValue) == ["decode", "differential", "structure"])
        #expect(FuzzTarget.builtProducts == ["decode", "differential", "structure", "decode_c"])
        let manifest = try String(contentsOfFile: repositoryRoot + "/Fuzz/Package.swift", encoding: .utf8)
        for product in FuzzTarget.builtProducts { #expect(manifest.contains(#".executable(name: "\#(product)""#), "\(product)") }
    }

    @Test func theSmokeLegBuildsThenRunsReplaysAndChecksClusterFuzzLite() {
        #expect(FuzzSmoke.plan(seconds: 30) == [
            .build, .campaign(.decode, seconds: 30), .campaign(.differential, seconds: 30), .campaign(.structure, seconds: 30),
            .replayRegressions(.decode), .replayRegressions(.differential), .replayRegressions(.structure), .clusterFuzzLiteCheck,
        ])
    }

    @Test func aCampaignsCommandLineHasTheSharedFlagsThenTheCorpusFolders() throws {
        let arguments = LibFuzzerArguments(workspace: workspace)
        let common = ["-dict=/tree/Corpus/wireproof.dict", "-artifact_prefix=/tree/.scratch/fuzz/decode/crashes/", "-print_final_stats=1",
                      "-max_len=4096", "-rss_limit_mb=2048", "-timeout=10"]
        #expect(arguments.common(.decode) == common)
        let folders = ["/tree/.scratch/fuzz/decode/corpus", "/tree/Corpus/seeds", "/tree/Corpus/regressions"]
        let one = try CampaignSettings(environment: [:])
        #expect(arguments.campaign(.decode, seconds: 60, settings: one) == common + ["-max_total_time=60"] + folders)
        let four = try CampaignSettings(environment: ["FUZZ_JOBS": "4", "FUZZ_ARGS": " -seed=7  -use_value_profile=1"])
        #expect(arguments.campaign(.decode, seconds: 60, settings: four)
            == common + ["-max_total_time=60", "-jobs=4", "-workers=4", "-seed=7", "-use_value_profile=1"] + folders)
        #expect(arguments.merge(.structure, into: "/m").prefix(2) == ["-merge=1", "-dict=/tree/Corpus/wireproof.dict"])
        #expect(arguments.merge(.structure, into: "/m").suffix(3) == ["/m", "/tree/Corpus/seeds", "/tree/.scratch/fuzz/structure/corpus"])
        #expect(LibFuzzerArguments.replay(["x"]) == ["-runs=1", "x"])
        #expect(LibFuzzerArguments.minimizeCrash("/r", into: "/m") == ["-minimize_crash=1", "-runs=20000", "-exact_artifact_path=/m", "/r"])
    }

    @Test func fuzzJobsMustBeAWholeNumberOfWorkers() throws {
        #expect(try CampaignSettings(environment: ["FUZZ_JOBS": ""]).jobs == 1)
        for bad in ["0", "two", "-1", "65"] {
            #expect(throws: FuzzError("FUZZ_JOBS must be a whole number from 1 to 64, not '\(bad)'")) {
                try CampaignSettings(environment: ["FUZZ_JOBS": bad])
            }
        }
    }

    @Test func theBuildFlagsAndExportsAreFuzzEnvs() throws {
        let script = try String(contentsOfFile: repositoryRoot + "/scripts/fuzz-env.sh", encoding: .utf8)
        let lines = script.split(separator: "\n")
        let flagsLine = try #require(lines.first { $0.hasPrefix("FUZZ_BUILD_FLAGS=(") })
        let all = try FuzzEnvironment.read(root: repositoryRoot, overrides: ["FUZZ_COVERAGE": "all"])
        #expect(all.buildFlags == flagsLine.dropFirst("FUZZ_BUILD_FLAGS=(".count).dropLast().split(separator: " ").map(String.init))
        #expect(all.buildFlags.contains("-sanitize=fuzzer,address"))
        #expect(all.exported == ["SWIFT_BACKTRACE": "enable=no"])
        let scoped = try FuzzEnvironment.read(root: repositoryRoot, overrides: ["FUZZ_COVERAGE": "runtime"])
        #expect(scoped.buildFlags.suffix(2) == ["--scratch-path", ".build-scoped"])
        #expect(scoped.exported == ["SWIFT_BACKTRACE": "enable=no", "WIREPROOF_FUZZ_RUNTIME_COVERAGE": "1"])
        let error = try #require(throws: FuzzError.self) { try FuzzEnvironment.read(root: repositoryRoot, overrides: ["FUZZ_COVERAGE": "most"]) }
        #expect(error.description.contains("FUZZ_COVERAGE must be all or runtime, not 'most'"))
        // Every variable the script exports reaches the builds and runs.
        for line in lines {
            guard let range = line.range(of: #"export [A-Z_]+="#, options: .regularExpression) else { continue }
            let name = line[range].dropFirst("export ".count).dropLast()
            #expect(FuzzEnvironment.exportedNames.contains(String(name)), "\(name)")
        }
        #expect(scoped.envCommand("/bin/x", ["-runs=1"], extra: ["ASAN_OPTIONS": "a", "SWIFT_BACKTRACE": "b"])
            == ["ASAN_OPTIONS=a", "SWIFT_BACKTRACE=b", "WIREPROOF_FUZZ_RUNTIME_COVERAGE=1", "/bin/x", "-runs=1"])
    }

    @Test func aTriageFolderIsNamedByTheSHA1OfTheInput() throws {
        let folder = try TemporaryFolder("fuzz-triage")
        let file = folder.path + "/input"
        try Data("abc".utf8).write(to: URL(fileURLWithPath: file))
        let sha1 = try FuzzTriage.sha1(of: file)
        #expect(sha1 == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(workspace.triageFolder(.differential, sha1: sha1) == "/tree/.scratch/fuzz/differential/triage/a9993e364706816aba3e25717850c26c9cd0d89d")
        // The type selector byte, then protoc's reading of the rest (field 1, varint 150).
        #expect(FuzzTriage.decodeRawReport([7, 0x08, 0x96, 0x01]) == "type selector byte: 7\n1: 150\n")
        #expect(FuzzTriage.decodeRawReport([]).hasPrefix("type selector byte: 0\n"))
    }

    @Test func aGrowingLogShowsEachProgressLineOnceWhenComplete() throws {
        let folder = try TemporaryFolder("fuzz-follow")
        let log = folder.path + "/fuzz.log"
        try Data("INFO: Seed: 1\n#2\tINITED cov: 5\n#4\tNEW c".utf8).write(to: URL(fileURLWithPath: log))
        var follower = LogFollower(path: log)
        #expect(follower.newProgressLines(final: false) == ["#2\tINITED cov: 5"])
        let handle = try #require(FileHandle(forWritingAtPath: log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("ov: 6\nINFO: x\n==1== ERROR: LeakSanitizer".utf8))
        try handle.close()
        #expect(follower.newProgressLines(final: false) == ["#4\tNEW cov: 6"])
        #expect(follower.newProgressLines(final: true) == ["==1== ERROR: LeakSanitizer"])
        #expect(follower.newProgressLines(final: true).isEmpty)
    }

    @Test func theEndReportAddsUpWorkersAndKeepsTheLastCoverage() {
        let log = """
            #2\tINITED cov: 100 ft: 200 corp: 3/10b exec/s: 0 rss: 40Mb
            #512\tpulse  cov: 150 ft: 320 corp: 9/80b lim: 8 exec/s: 256 rss: 41Mb
            stat::number_of_executed_units: 1000
            stat::average_exec_per_sec:     400
            #900\tNEW    cov: 170 ft: 333 corp: 12/99b exec/s: 300 rss: 44Mb
            stat::number_of_executed_units: 500
            stat::average_exec_per_sec:     200
            """
        let report = CampaignReport(log: log)
        #expect(report == CampaignReport(executions: 1500, execsPerSecond: 600, edges: 170, features: 333))
        #expect(report.lines(target: .decode, seconds: 60, corpus: "/c", before: 4, after: 9) == [
            "", "fuzz report: target decode, 60 s",
            "  executions             1500", "  exec/s                 600", "  coverage (edges)       170",
            "  features               333", "  corpus entries         9 (5 new in /c)"])
        #expect(CampaignReport(log: "nothing").lines(target: .structure, seconds: 1, corpus: "/c", before: 0, after: 0)[4] == "  coverage (edges)       ?")
        #expect(CampaignReport.executedAnything(log) && !CampaignReport.executedAnything("stat::number_of_executed_units: 0"))
        let shown = ["#512\tpulse cov: 1", "==1== ERROR: AddressSanitizer: heap-use-after-free", "Fatal error: broken property [x]",
                     "SUMMARY: AddressSanitizer: 1 byte(s) leaked"]
        for line in shown { #expect(CampaignReport.isProgress(Substring(line)), "\(line)") }
        for line in ["INFO: Seed: 1", "#comment", "MERGE-OUTER: 3 files"] { #expect(!CampaignReport.isProgress(Substring(line)), "\(line)") }
    }
}
