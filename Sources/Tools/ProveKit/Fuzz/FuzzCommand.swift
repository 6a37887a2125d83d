// `wireproof fuzz`: the libFuzzer workflows over the bundled schema (docs/fuzzing.md), entry points in
// mk/fuzz.mk. Each subcommand is a thin shell over its workflow type in this folder. Work happens in
// .scratch/fuzz/<target>/. Environment: FUZZ_JOBS (parallel workers for `run`, default 1),
// FUZZ_ARGS (more libFuzzer flags), FUZZ_COVERAGE (all or runtime, read by scripts/fuzz-env.sh).
// Exit status: 0 done; 1 a workflow failed (its reason on standard error as "fuzz: ..."); 2 a usage error.

import ProtoGenKit
import ArgumentParser
import Foundation

/// The fuzz subcommands.
public struct FuzzCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "libFuzzer campaigns over the bundled schema: build, run, smoke (CI leg), minimize, triage, corpus, replay, planted, rate.",
        subcommands: [Build.self, Run.self, Smoke.self, Minimize.self, Triage.self, Corpus.self, Replay.self, DescriptorSet.self, Generate.self,
                      Planted.self, Rate.self])

    public init() {}

    /// The tree's workspace and its fuzz build, the SwiftProtobuf party holding at least its
    /// placeholder; `work` runs over them, and a `FuzzError` becomes "fuzz: ..." and exit status 1.
    static func run(_ work: (FuzzBuild) throws -> Void) throws {
        do {
            let workspace = FuzzWorkspace(root: try GenerationTools.wireproofRoot())
            try workspace.ensurePartyPlaceholder()
            try work(FuzzBuild(workspace: workspace, environment: try FuzzEnvironment.read(root: workspace.root)))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("fuzz: \(error)")
            throw ExitCode.failure
        }
    }

    static func settings() throws -> CampaignSettings { try CampaignSettings(environment: ProcessInfo.processInfo.environment) }

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Build every target (Fuzz/, release, fuzzer + ASan) and the descriptor set beside them.")
        func run() throws { try FuzzCommand.run { try $0.build() } }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A campaign: progress, then the end report, the coverage plot and the triage of any crash.")
        @Argument(help: "The target (decode, differential, structure).") var target: FuzzTarget
        @Argument(help: "How long, in seconds.") var seconds: UInt
        func run() throws {
            try FuzzCommand.run { try FuzzCampaign(build: $0, settings: try FuzzCommand.settings()).run(target, seconds: Int(seconds)) }
        }
    }

    struct Smoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The CI leg: build, every target for SECONDS, the regression replay through every binary, ClusterFuzzLite's build.sh.")
        @Argument(help: "Seconds per target.") var seconds: UInt = 30
        func run() throws {
            try FuzzCommand.run { build in
                guard try FuzzSmoke(build: build, settings: try FuzzCommand.settings()).run(seconds: Int(seconds)) else { throw ExitCode.failure }
            }
        }
    }

    struct Minimize: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Merge the campaign's corpus (with Corpus/seeds) down to what adds coverage.")
        @Argument(help: "The target.") var target: FuzzTarget
        func run() throws { try FuzzCommand.run { try FuzzCorpusWork(build: $0).minimize(target) } }
    }

    struct Triage: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A triage folder for one crashing input: reproducer, minimized, decode_raw, stack.")
        @Argument(help: "The target.") var target: FuzzTarget
        @Argument(help: "The input.") var file: String
        func run() throws { try FuzzCommand.run { try FuzzTriage(build: $0).triage(target, FuzzWorkspace.absolute(file)) } }
    }

    struct Corpus: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Regenerate Corpus/seeds, Corpus/wireproof.dict and decode_c's type table (generated files).")
        func run() throws { try FuzzCommand.run { try FuzzCorpusWork(build: $0).regenerate() } }
    }

    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run inputs once through a target.")
        @Argument(help: "The target.") var target: FuzzTarget
        @Argument(help: "The inputs.") var files: [String]
        func run() throws {
            try FuzzCommand.run { build in
                let status = try FuzzCorpusWork(build: build).replay(target, files.map(FuzzWorkspace.absolute))
                if status != 0 { throw ExitCode(status) }
            }
        }
    }

    struct DescriptorSet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "descriptor-set",
            abstract: "The bundled schema's descriptor set (what the harness reads) into FILE, rewritten only when it changes.")
        @Argument(help: "The file to write.") var file: String
        func run() throws { try FuzzCommand.run { try FuzzSchemaFiles(workspace: $0.workspace).writeDescriptorSet(to: FuzzWorkspace.absolute(file)) } }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "protoc-gen-swift's code for the bundled schema into Fuzz/Sources/SwiftProtobufSchema (the differential's SwiftProtobuf party).")
        func run() throws { try FuzzCommand.run { try FuzzSchemaFiles(workspace: $0.workspace).generateSwiftProtobufParty() } }
    }

    struct Planted: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time to the first crash of each target on each planted nanopb bug, in .scratch/planted/tree: found count and median of RUNS runs.")
        @Option(help: "Runs per bug and target (libFuzzer seeds 1...RUNS).") var runs = 3
        @Option(help: "Seconds each run may fuzz.") var limit = 60
        @Option(help: "The targets, separated by spaces.") var targets = "decode differential"
        @Argument(help: "Plants of scripts/mutation/plants.txt (default: \(PlantedFuzzSettings.defaultBugs.joined(separator: " "))).")
        var bugs: [String] = []

        func validate() throws {
            guard runs >= 1, runs <= 100 else { throw ValidationError("--runs must be from 1 to 100") }
            guard limit >= 1 else { throw ValidationError("--limit must be at least 1 second") }
            _ = try settings()
        }

        func settings() throws -> PlantedFuzzSettings {
            var settings = PlantedFuzzSettings()
            settings.runs = runs; settings.limit = limit
            settings.targets = try targets.split(separator: " ").map { name in
                guard let target = FuzzTarget(rawValue: String(name)) else {
                    throw ValidationError("unknown target '\(name)' in --targets (known: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                return target
            }
            guard !settings.targets.isEmpty else { throw ValidationError("--targets names no target") }
            if !bugs.isEmpty { settings.bugs = bugs }
            return settings
        }

        func run() throws {
            let settings = try settings()
            try FuzzCommand.run { build in
                let rows = try PlantedFuzzRun(root: build.workspace.root, settings: settings).run()
                printOut("")
                for row in rows { printOut(row) }
            }
        }
    }

    struct Rate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Facade decode vs plain C decode_c per CPU second: two campaigns, then every seed REPEAT times (the fixed-input ratio).",
            discussion: "Environment: FUZZ_COVERAGE (default runtime), FUZZ_RATE_CORE, FUZZ_RATE_CAMPAIGN=0 (as --fixed-only), REPEAT (200).")
        @Argument(help: "Seconds of each campaign.") var seconds: UInt = 60
        @Flag(help: "Skip the campaigns: only the fixed input set (what make bench measures).") var fixedOnly = false
        @Option(help: "The core both fuzzers are pinned to (default FUZZ_RATE_CORE, else 0).") var core: UInt?

        func run() throws {
            try FuzzCommand.run { build in
                var settings = try RateSettings(environment: ProcessInfo.processInfo.environment)
                settings.seconds = Int(seconds)
                if fixedOnly { settings.campaigns = false }
                if let core { settings.core = Int(core) }
                try FuzzRate(workspace: build.workspace, settings: settings).run()
            }
        }
    }
}
