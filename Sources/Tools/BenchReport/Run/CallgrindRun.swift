// One callgrind run of the ratios leg: a codec program over one packet's bytes, its listing
// (`callgrind_annotate --inclusive=yes`) beside it and a line "NAME ITERATIONS" appended to the
// `iterations` file the report divides by.

import Foundation

struct CallgrindRun: Equatable {
    /// "<program>-<packet>": the stem of its .out, .log and .txt files in the work folder.
    let name: String
    let packet: String
    let iterations: Int
    /// Options before the program: `--toggle-collect=FUNCTION` for the runs that count only their loops.
    let toggles: [String]
    /// The program and its arguments.
    let command: [String]
    let work: String

    /// The facade loops' functions (CodecBench's `loopFacadeDecode`/`loopFacadeEncode`, mangled).
    static let facadeToggle = "--toggle-collect=$s10CodecBench16loopFacade*"
    /// The plain C program's loops.
    static let cToggles = ["--toggle-collect=loop_decode", "--toggle-collect=loop_encode"]

    /// `callgrind_annotate` of `outFile`: inclusive costs, every function (threshold 100 %).
    static func annotateCommand(_ outFile: String) -> [String] {
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", outFile]
    }

    /// The full valgrind command line.
    var valgrindCommand: [String] {
        ["valgrind", "--tool=callgrind"] + toggles + ["--callgrind-out-file=\(work)/\(name).out"] + command
    }

    /// Every run, packet by packet (chat, then metrics), in the order facades, nanopb C,
    /// libprotobuf full, lite, SwiftProtobuf (absent when `swiftProtobuf` is nil).
    static func plan(codecBench: String, descriptorSet: String, codecC: String, full: String, lite: String,
                     swiftProtobuf: String?, work: String, chatIterations: Int, metricsIterations: Int) -> [CallgrindRun] {
        var runs: [CallgrindRun] = []
        for packet in RatioReport.packets {
            let n = packet == "metrics" ? metricsIterations : chatIterations
            let bytes = "\(work)/\(packet).bin"
            func add(_ program: CodecProgram, _ toggles: [String], _ command: [String]) {
                runs.append(CallgrindRun(name: "\(program.rawValue)-\(packet)", packet: packet, iterations: n,
                                         toggles: toggles, command: command, work: work))
            }
            add(.facade, [facadeToggle], [codecBench, "count", descriptorSet, packet, String(n)])
            add(.c, cToggles, [codecC, bytes, String(n)])
            add(.full, [], [full, bytes, String(n)])
            add(.lite, [], [lite, bytes, String(n)])
            if let swiftProtobuf { add(.swiftprotobuf, [], [swiftProtobuf, bytes, String(n)]) }
        }
        return runs
    }

    /// The `iterations` file's line for this run.
    var iterationsLine: String { "\(name) \(iterations)\n" }

    /// Runs valgrind (a failure stops the bench with the log), writes the listing, appends to `iterations`.
    func execute() throws {
        try BenchShell.run(valgrindCommand, log: "\(work)/\(name).log", failure: "valgrind failed on \(name)", tailLines: 40,
                           environment: CodecTimingStep.callgrindEnvironment)
        try BenchShell.run(Self.annotateCommand("\(work)/\(name).out"), log: "\(work)/\(name).txt",
                           failure: "callgrind_annotate failed on \(name)")
        try Self.append(iterationsLine, toFileAt: work + "/iterations")
    }

    /// Appends `line` to the file at `path`, creating the file when missing (earlier runs' lines stay).
    static func append(_ line: String, toFileAt path: String) throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: path) || manager.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw BenchRunError.stepFailed(what: "cannot append to \(path)", logTail: "")
        }
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(line.utf8))
    }
}
