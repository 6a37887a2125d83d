// `wiremutate`: mutation testing of Wireproof's own code (docs/mutation.md), and the planted bugs of
// `wiremutate plant-legs` and `wireproof fuzz planted`. Paths are relative to the repository root, which is the
// current directory.

import ArgumentParser
import Foundation

public struct MutateCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "wiremutate",
        abstract: "Mutation testing of the project's own code, and planted bugs in a scratch copy.",
        discussion: "Run from the repository root. Without a subcommand: `run`.",
        subcommands: [RunMutants.self, TreeCommand.self, PlantCommand.self, UnplantCommand.self, PlantLegsCommand.self, CoverageCommand.self],
        defaultSubcommand: RunMutants.self)
    public init() {}

    /// The repository root (the current directory), refused unless it holds scripts/mutation/.
    static func root() throws -> String {
        let root = FileManager.default.currentDirectoryPath
        guard FileManager.default.fileExists(atPath: root + "/scripts/mutation/plants.txt") else {
            throw ValidationError("run from the repository root (no scripts/mutation/plants.txt in \(root))")
        }
        return root
    }
}

struct RunMutants: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Judge a seeded sample of mutants (all without --sample) and report.")

    @Option(help: "The sampling seed.") var seed = 1
    @Option(help: "Judge this many mutants (0: all).") var sample = 0
    @Option(name: .customLong("layer"), help: "Only this layer (repeatable); without it, every layer but those whose checks are whole CI legs.")
    var layers: [String] = []
    @Option(help: "Fail below this score (0-100).") var minScore = 0.0
    @Flag(help: "List the chosen mutants and stop.") var list = false
    @Flag(help: "Reuse the verdicts in the scratch folder's results.jsonl for mutants judged before.") var resume = false
    @Option(name: .customLong("rejudge"), help: "With --resume: judge again the mutants whose last verdict was this (e.g. survived).")
    var rejudge: [String] = []
    @Option(help: "Folder of the scratch copy, log and results (one per concurrent run).") var scratch = ".scratch/mutation"
    @Option(help: "K/N: judge only the chosen mutants at positions K, K+N, K+2N, ...") var shard = "0/1"
    @Option(name: .customLong("results-from"), help: "With --resume: also reuse the verdicts in DIR/results.jsonl.")
    var resultsFrom: [String] = []
    @Flag(help: "With --resume: judge only mutants that have a verdict on record.") var noNew = false
    @Flag(help: "Judge nothing: report the verdicts --resume finds.") var reportOnly = false
    @Option(help: "A step may take this many times its baseline duration.") var timeoutScale = 3.0
    @Flag(help: "Judge in the working tree itself, whose build is current (CI, after the test leg), not in a scratch copy; refused unless git reports the tree clean.")
    var inPlace = false

    func run() throws {
        let parts = shard.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let k = parts[0], let n = parts[1], k >= 0, k < n else {
            throw ValidationError("--shard takes K/N with 0 <= K < N")
        }
        let unknown = Set(layers).subtracting(Layer.all.map(\.name))
        guard unknown.isEmpty else {
            throw ValidationError("unknown layer(s) \(unknown.sorted().joined(separator: ", ")); known: \(Layer.all.map(\.name).joined(separator: ", "))")
        }
        var options = RunOptions()
        options.seed = seed; options.sample = sample; options.layers = layers; options.minScore = minScore
        options.list = list; options.resume = resume; options.rejudge = rejudge; options.scratch = scratch
        options.shard = k; options.shards = n; options.resultsFrom = resultsFrom; options.noNew = noNew
        options.reportOnly = reportOnly; options.timeoutScale = timeoutScale; options.inPlace = inPlace
        let status = try MutationRun(root: try MutateCommand.root(), options: options).run()
        if status != 0 { throw ExitCode(status) }
    }
}

struct TreeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree", abstract: "Copy or refresh the working tree into DIR (ignored files there are kept).")

    @Argument(help: "The scratch copy's folder.") var dir: String
    @Flag(help: "Copy .deps/nanopb and .deps/protobuf, not link .deps.") var privateDeps = false
    @Option(name: .customLong("also"), help: "A git-ignored folder to copy too (repeatable).") var also: [String] = []

    func run() throws {
        let root = try MutateCommand.root()
        let absolute = dir.hasPrefix("/") ? dir : root + "/" + dir
        do { try ScratchTree.prepare(root: root, tree: absolute, privateDeps: privateDeps, also: also) } catch {
            throw PlantCommand.fail("\(error)", status: 1)
        }
    }
}

struct PlantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plant", abstract: "Apply the named plants (scripts/mutation/plants.txt) in a scratch copy; --check: apply and undo each.")

    @Argument(help: "Plant names (with --check: all when none).") var names: [String] = []
    @Flag(help: "Apply and undo each plant, checking the file comes back byte for byte.") var check = false
    @Option(help: "A scratch copy made by `tree`.") var tree: String

    func run() throws {
        let root = try MutateCommand.root()
        let text = (try? String(contentsOfFile: root + "/scripts/mutation/plants.txt", encoding: .utf8)) ?? ""
        let plants = Plants.parse(text)
        let chosen = check && names.isEmpty ? plants.map(\.name) : names
        do {
            for name in chosen {
                guard let plant = plants.first(where: { $0.name == name }) else {
                    throw PlantError("unknown plant '\(name)' (known: \(plants.map(\.name).joined(separator: " ")))", status: 2)
                }
                if check {
                    try Plants.check(plant, in: tree)
                    print("plant: \(name) applies once to \(plant.path) and unplants cleanly")
                } else {
                    try Plants.apply(plant, in: tree)
                }
            }
        } catch let error as PlantError {
            throw Self.fail(error.description, status: error.status)
        }
    }

    /// One line on standard error, then the exit status.
    static func fail(_ message: String, status: Int32) -> ExitCode {
        FileHandle.standardError.write(Data("plant: \(message)\n".utf8))
        return ExitCode(status)
    }
}

struct UnplantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unplant", abstract: "Put back every file a plant changed.")

    @Option(help: "A scratch copy made by `tree`.") var tree: String

    func run() throws {
        do { try Plants.unplant(in: tree) } catch { throw PlantCommand.fail(error.description, status: error.status) }
    }
}

struct PlantLegsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plant-legs",
        abstract: "Each plant on each sanitizer leg that must report it, in .scratch/plant/tree; passes only when every leg fails with its report.",
        discussion: "Plants and legs: \(PlantLegs.plants.map { "\($0) -> \(PlantLegs.legs(for: $0).map(\.rawValue).joined(separator: " "))" }.joined(separator: "; ")). "
            + "Logs and summary.txt in .scratch/plant/logs. Exit status: 0 every leg caught its plant, 1 not, 2 a usage error.")

    @Argument(help: "Plant names (default: every plant of the sanitizer legs).") var names: [String] = []
    @Option(name: .customLong("leg"), help: "Run this leg (asan, tsan, valgrind, accounting) for each plant named, instead of its own (repeatable).")
    var legs: [String] = []
    @Option(help: "Seconds a leg may take before it is stopped and counted as not caught.") var legLimit = 3600

    /// The legs named by --leg, in order; a name that is no leg is a usage error naming it.
    func chosenLegs() throws -> [PlantLeg] {
        try legs.map { name in
            guard let leg = PlantLeg(rawValue: name) else {
                throw ValidationError("unknown leg '\(name)' for --leg (known: \(PlantLeg.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return leg
        }
    }

    func validate() throws {
        _ = try chosenLegs()
        guard legLimit > 0 else { throw ValidationError("--leg-limit must be at least 1 second") }
    }

    func run() throws {
        let root = try MutateCommand.root()
        let chosen = try chosenLegs()
        let known = Plants.parse((try? String(contentsOfFile: root + "/scripts/mutation/plants.txt", encoding: .utf8)) ?? "").map(\.name)
        let plan = try (names.isEmpty ? PlantLegs.plants : names).map { plant in
            guard known.contains(plant) else { throw ValidationError("unknown plant '\(plant)' (known: \(known.joined(separator: " ")))") }
            let planned = chosen.isEmpty ? PlantLegs.legs(for: plant) : chosen
            guard !planned.isEmpty else { throw ValidationError("plant '\(plant)' has no sanitizer leg; name one with --leg") }
            return (plant: plant, legs: planned)
        }
        var run = PlantLegsRun(root: root, scratch: root + "/.scratch/plant", plan: plan)
        run.legLimit = Double(legLimit)
        let result: (rows: [String], allCaught: Bool)
        do { result = try run.run() } catch let error as PlantError {
            throw PlantCommand.fail(error.description, status: error.status)
        } catch {
            throw PlantCommand.fail("\(error)", status: 1)
        }
        print("\nPlanted bugs:")
        for row in result.rows { print("  " + row) }
        if !result.allCaught { throw ExitCode.failure }
    }
}
