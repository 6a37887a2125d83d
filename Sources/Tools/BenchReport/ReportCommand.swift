// `wirebench report <subcommand>`: the figures of `make bench`, one subcommand per leg of
// `wirebench run` (which calls the same functions in process; these are for reruns by hand). Each merges what it measured into RESULTS.json and prints its part;
// `summary` prints the one table and writes docs/measurements.md's bench section.

import ArgumentParser
import Foundation

/// `wirebench report`: the bench pipeline's reporter.
public struct ReportCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "The figures of `make bench` (`wirebench run`), merged into one RESULTS.json per run.",
        subcommands: [Lines.self, Sizes.self, PeerSizes.self, Codec.self, Ratios.self, Summary.self, PlanMessages.self])

    public init() {}

    static func emit(_ line: String) { Swift.print(line) }

    /// Loads RESULTS.json, lets `body` add to it, saves it.
    static func update(_ path: String, _ body: (inout BenchResults) throws -> Void) throws {
        var results = try BenchResults.load(path)
        try body(&results)
        try results.save(path)
    }

    /// "NAME=VALUE" arguments as pairs.
    static func pairs(_ arguments: [String]) throws -> [(String, String)] {
        try arguments.map { argument in
            guard let eq = argument.firstIndex(of: "=") else { throw ValidationError("expected NAME=PATH, got '\(argument)'") }
            return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
        }
    }

    struct Lines: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lines and code lines of the fixed-cost runtime's files.")
        @Argument(help: "RESULTS.json of the run") var results: String
        @Argument(help: "the runtime's source files") var files: [String]
        func run() throws {
            try ReportCommand.update(results) { $0.runtimeLines = try RuntimeLines.report(files, print: ReportCommand.emit) }
        }
    }

    struct Sizes: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sizes and symbol attribution of the probe executables.")
        @Argument(help: "RESULTS.json of the run") var results: String
        @Argument(help: "CONFIG=SCRATCH_PATH of each release build") var builds: [String]
        @Option(help: "folder for the stripped copies") var out: String
        @Option(help: "messages in the bundled schema") var allCount: Int
        @Option(help: "messages in the schema pruned to SizeOne's message") var oneCount: Int
        func run() throws {
            let configurations = try ReportCommand.pairs(builds).map { (name: $0.0, build: $0.1) }
            try ReportCommand.update(results) {
                try SizeReport.measure(configurations, outDirectory: out, allCount: allCount, oneCount: oneCount,
                                       into: &$0, print: ReportCommand.emit)
            }
        }
    }

    struct PeerSizes: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "peer-sizes", abstract: "SizePacket built against SwiftProtobuf.")
        @Argument(help: "RESULTS.json of the run") var results: String
        @Argument(help: "CONFIG=EXECUTABLE of each SwiftProtobuf build") var builds: [String]
        @Option(help: "folder for the stripped copies") var out: String
        func run() throws {
            let pairs = try ReportCommand.pairs(builds).map { (name: $0.0, executable: $0.1) }
            try ReportCommand.update(results) {
                try PeerSizeReport.measure(pairs, outDirectory: out, into: &$0, print: ReportCommand.emit)
            }
        }
    }

    struct Codec: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Facade vs oracle timings and instruction counts.")
        @Argument(help: "RESULTS.json of the run") var results: String
        @Argument(help: "CodecBench time output") var timeOutput: String
        @Argument(help: "folder of the callgrind_annotate listings (<packet>.txt)") var annotateDirectory: String
        @Argument(help: "iterations per callgrind loop") var iterations: Int
        func run() throws {
            try ReportCommand.update(results) {
                try CodecReport.report(timeOutput: timeOutput, annotateDirectory: annotateDirectory,
                                       iterations: max(iterations, 1), into: &$0, print: ReportCommand.emit)
            }
        }
    }

    struct Ratios: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Facades ÷ nanopb C, libprotobuf, SwiftProtobuf; fuzz rate; peak memory.")
        @Argument(help: "RESULTS.json of the run") var results: String
        @Argument(help: "the ratio step's work folder (BENCH_TMP/out/ratios)") var work: String
        func run() throws {
            try ReportCommand.update(results) { r in
                let ratios = try RatioReport.read(work: work)
                r.ratios = ratios
                ReportCommand.emit("")
                for line in RatioReport.tableLines(ratios) { ReportCommand.emit("  " + line) }
            }
        }
    }

    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The one summary table; writes the bench section of --doc.")
        @Argument(help: "RESULTS.json of the run") var results: String
        @Option(help: "document whose bench section to rewrite (none: print only)") var doc: String?
        @Option(help: "the command that reproduces the run") var command: String = ""
        @Option(help: "the run's header line") var header: String = ""
        func run() throws {
            let r = try BenchResults.load(results)
            for line in SummaryTable.terminalLines(SummaryTable.rows(r)) { ReportCommand.emit(line) }
            guard let doc else { return }
            try MeasurementsSection.write(MeasurementsSection.lines(r, header: header, command: command), to: doc)
            ReportCommand.emit("\n  wrote the figures into \(doc) (section between the bench:begin/end markers)")
        }
    }

    struct PlanMessages: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "plan-messages",
                                                        abstract: "How many messages a generation plan (protogen --plan-out) holds.")
        @Argument(help: "the plan's JSON file") var plan: String
        func run() throws {
            ReportCommand.emit(String(try GenerationPlanCount.messages(inPlanAt: plan)))
        }
    }
}

/// Counting a generation plan's types.
public enum GenerationPlanCount {
    struct Plan: Decodable { struct PlannedType: Decodable { let kind: String }; let types: [PlannedType] }

    /// Types of kind "message" in the plan file at `path`.
    public static func messages(inPlanAt path: String) throws -> Int {
        try JSONDecoder().decode(Plan.self, from: Data(contentsOf: URL(fileURLWithPath: path))).types.filter { $0.kind == "message" }.count
    }
}
