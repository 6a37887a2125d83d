// `wirebench run` (what `make bench` runs): the shipped layer's figures, measured side by side in
// one run (DESIGN.md: benchmarks print ratios; tests never assert timings), with progress as it goes:
//   1. lines of the fixed-cost runtime (Sources/Shipped/NanopbRuntime);
//   2. the scratch package (ScratchPackageStep);
//   3. sizes of the release probes, both configurations, and SwiftProtobuf's (ReleaseBuildStep);
//   4. facade vs oracle encode/decode time and instructions (CodecTimingStep);
//   4b. facades / plain nanopb C / libprotobuf full and lite / SwiftProtobuf, fuzz-target rate,
//       peak memory (RatioStep);
//   5. one summary table, every goal of the shipped layer with "met" / "not met", also written into
//      docs/measurements.md between the <!-- bench:begin --> / <!-- bench:end --> markers.
// The knobs are BenchSettings'. Figures merge into BENCH_TMP/out/results.json.

import ArgumentParser
import Foundation
import ProcessSupport

/// The protogen and wireproof the steps run: debug builds in BENCH_TMP/protogen, made on first use.
final class BenchTools {
    private let settings: BenchSettings
    private let log: String
    private var built: [String: String] = [:]
    private var peer: [String]?

    /// The environment of `wireproof swiftprotobuf-peer`: the tree it builds the peer from is this
    /// one, named, not found from where its binary lies (BENCH_TMP may be shared by several trees).
    let peerEnvironment: [String: String]

    init(_ settings: BenchSettings, root: String) {
        self.settings = settings
        log = settings.out + "/tools-build.log"
        peerEnvironment = ["WIREPROOF_ROOT": root]
    }

    private func executable(_ product: String) throws -> String {
        if let path = built[product] { return path }
        let scratch = ["--scratch-path", settings.toolScratch]
        try BenchShell.run([settings.swift, "build"] + scratch + ["--product", product], log: log,
                           failure: "\(product) does not build (scratch path \(settings.toolScratch))")
        let bin = try BenchShell.output([settings.swift, "build"] + scratch + ["--show-bin-path"], log: log,
                                        failure: "swift build --show-bin-path failed")
        let path = bin.trimmingCharacters(in: .whitespacesAndNewlines) + "/" + product
        built[product] = path
        return path
    }

    var protogen: [String] { get throws { [try executable("protogen")] } }
    var wireproof: [String] { get throws { [try executable("wireproof")] } }

    /// The `wireproof` that builds the SwiftProtobuf peer: WIREPROOF_TOOL when given, else the one above.
    func peerTool() throws -> [String] {
        if let tool = settings.wireproofTool { return [tool] }
        return try wireproof
    }
}

public enum BenchRun {
    /// The line that starts a run's output and its section in docs/measurements.md.
    static func header(settings: BenchSettings) -> String {
        let day = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let commit = BenchShell.quietOutput(["git", "rev-parse", "--short", "HEAD"]) ?? "?"
        let swift = (BenchShell.quietOutput([settings.swift, "--version"]) ?? "")
            .split(separator: "\n").first.map { String($0.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces) } ?? "Swift ?"
        let cores = BenchShell.quietOutput(["nproc"]) ?? String(ProcessInfo.processInfo.activeProcessorCount)
        let load = ((try? BenchShell.read("/proc/loadavg")) ?? "?").split(separator: " ").first.map(String.init) ?? "?"
        return "Measured \(day) at commit \(commit) (plus any uncommitted changes), \(swift), \(cores) cores "
            + "(shared; load average \(load) at start)."
    }

    /// Runs every step from the repository root `root`; throws the first failure.
    public static func run(root: String, environment: [String: String]) throws {
        guard FileManager.default.changeCurrentDirectoryPath(root) else {
            throw BenchRunError.stepFailed(what: "cannot enter \(root)", logTail: "")
        }
        let valgrind = ChildProcess.executableOnPath("valgrind") != nil
        let settings = try BenchSettings(environment: environment, valgrindAvailable: valgrind)
        let clock = ProgressClock(name: "bench")
        let header = header(settings: settings)
        print("To reproduce: \(settings.reproduceCommand)    (= wirebench run; about 8 minutes on 2 shared cores from nothing, 5 with the Swift builds cached)")
        print(header)
        guard FileManager.default.fileExists(atPath: "Sources/Shipped/CNanopb/runtime/pb_decode.c") else {
            throw BenchRunError.stepFailed(what: "nanopb runtime missing: run 'make setup'", logTail: "")
        }
        let manager = FileManager.default
        try? manager.removeItem(atPath: settings.out)
        try manager.createDirectory(atPath: settings.out, withIntermediateDirectories: true)
        if settings.clean { for folder in settings.cleanedFolders { try? manager.removeItem(atPath: folder) } }
        let tools = BenchTools(settings, root: root)

        print("")
        clock.say("1/5 lines of the fixed-cost runtime (Sources/Shipped/NanopbRuntime/*.swift)")
        let runtime = "Sources/Shipped/NanopbRuntime"
        let runtimeFiles = try manager.contentsOfDirectory(atPath: runtime).filter { $0.hasSuffix(".swift") }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { runtime + "/" + $0 }
        try ReportCommand.update(settings.results) { $0.runtimeLines = try RuntimeLines.report(runtimeFiles, print: ReportCommand.emit) }

        print("")
        clock.say("2/5 writing the scratch package \(ScratchPackage.folder) (probes, pruned facades)")
        let scratch = try ScratchPackage.write(settings, root: root, tools: tools)

        print("")
        try ReleaseBuildStep.run(settings, package: root + "/" + ScratchPackage.folder, scratch: scratch, tools: tools, clock: clock)

        print("")
        try CodecTimingStep.run(settings, clock: clock)

        print("")
        if settings.callgrindIterations > 0 {
            try RatioStep.run(settings, tools: tools)
        } else {
            print("  (no valgrind: the facade / nanopb C / libprotobuf ratios are not measured)")
        }

        print("")
        clock.say("5/5 summary")
        let results = try BenchResults.load(settings.results)
        for line in SummaryTable.terminalLines(SummaryTable.rows(results)) { ReportCommand.emit(line) }
        if let doc = settings.document {
            try MeasurementsSection.write(MeasurementsSection.lines(results, header: header, command: settings.reproduceCommand), to: doc)
            ReportCommand.emit("\n  wrote the figures into \(doc) (section between the bench:begin/end markers)")
        }
        print("")
        clock.say("done (raw figures: \(settings.results))")
    }
}

/// `wirebench run`: every step of `make bench` (knobs from the environment: BenchSettings).
public struct RunCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Every step of `make bench`: sizes, codec timings and instructions, ratios, the summary table.",
        discussion: "Knobs (environment): BENCH_ROUNDS, BENCH_BATCH_MS, BENCH_CALLGRIND_ITERATIONS, BENCH_TMP, BENCH_DOC, "
            + "BENCH_CLEAN, BENCH_ONE_TYPE, BENCH_FUZZ, BENCH_PEAK, SWIFT, WIREPROOF_TOOL.")

    @Option(help: "the Wireproof repository's root") var root: String = FileManager.default.currentDirectoryPath

    public init() {}

    public func run() throws {
        let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        try BenchRun.run(root: absolute, environment: ProcessInfo.processInfo.environment)
    }
}
