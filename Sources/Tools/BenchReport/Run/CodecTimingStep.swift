// Step 4 of `make bench`: encode and decode time of the facades against the oracle (CodecBench
// `time`: interleaved rounds, medians, ratios) and their callgrind instruction counts.

import Foundation

enum CodecTimingStep {
    /// CodecBench of the default release build.
    static func codecBench(_ settings: BenchSettings) -> String { settings.releaseBuild(.default) + "/release/CodecBench" }

    /// CodecBench without DWARF: valgrind 3.19 gives up on Swift 6.3's ("Possibly corrupted
    /// debuginfo file"); `strip -g` keeps the symbol table callgrind names functions by.
    static func codecBenchWithoutDebugInfo(_ settings: BenchSettings) -> String { settings.out + "/CodecBench.nodebug" }

    /// The packets CodecBench `count` runs under callgrind in this step.
    static let countedPackets = ["chat", "user"]

    /// The environment of every callgrind run: deterministic hashing makes the counts repeat
    /// exactly from run to run (the oracle uses dictionaries).
    static let callgrindEnvironment = ["SWIFT_DETERMINISTIC_HASHING": "1"]

    static func run(_ settings: BenchSettings, clock: ProgressClock) throws {
        let out = settings.out, bench = codecBench(settings)
        clock.say("4/5 facade vs oracle, wall time: \(settings.rounds) interleaved rounds of ~\(settings.batchMilliseconds) ms batches per operation")
        let timeOutput = out + "/codec-time.txt"
        guard try BenchShell.status([bench, "time", out + "/rtm.pb", String(settings.rounds), String(settings.batchMilliseconds)],
                                    log: timeOutput, stderr: out + "/codec-time.log") == 0 else {
            throw BenchRunError.failed("CodecBench time failed", log: out + "/codec-time.log")
        }
        BenchShell.indentedLines(try BenchShell.read(timeOutput)) { $0.hasPrefix("RESULT") }.forEach(clock.emit)
        let listings = out + "/callgrind"
        try FileManager.default.createDirectory(atPath: listings, withIntermediateDirectories: true)
        if settings.callgrindIterations > 0 {
            clock.say("4/5 facade vs oracle, instructions: valgrind --tool=callgrind, \(settings.callgrindIterations) iterations per operation")
            let nodebug = codecBenchWithoutDebugInfo(settings)
            try BenchShell.run(["strip", "-g", "-o", nodebug, bench], log: out + "/strip-codecbench.log",
                               failure: "strip -g of CodecBench failed")
            for packet in countedPackets {
                let command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=\(listings)/\(packet).out",
                               nodebug, "count", out + "/rtm.pb", packet, String(settings.callgrindIterations)]
                if try BenchShell.status(command, log: "\(listings)/\(packet).log", environment: callgrindEnvironment) == 0 {
                    try BenchShell.status(CallgrindRun.annotateCommand("\(listings)/\(packet).out"), log: "\(listings)/\(packet).txt")
                } else {
                    clock.emit("  valgrind failed on packet \(packet) (see \(listings)/\(packet).log); wall time only")
                }
            }
        }
        try ReportCommand.update(settings.results) {
            try CodecReport.report(timeOutput: timeOutput, annotateDirectory: listings,
                                   iterations: max(settings.callgrindIterations, 1), into: &$0, print: clock.emit)
        }
    }
}
