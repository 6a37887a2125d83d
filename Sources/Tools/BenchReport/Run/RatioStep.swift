// Step 4b of `make bench`: the facades against plain nanopb C, Google's libprotobuf and
// SwiftProtobuf, side by side on the same bytes.
//   1. CodecBench dump writes the chat DataPacket (356 B) and the metrics DataPacket (~22 KB, a
//      MetricsBatch of 16 x 96 samples) to files.
//   2. Four more programs decode and encode those bytes, each checking the round trip byte for
//      byte: CodecC (plain C over the facades' own runtime, generated C, config header and release
//      C flags, built in the scratch package), CodecCpp full and lite (LibprotobufPrograms), and
//      codec-speed-swiftprotobuf (Peers/SwiftProtobuf, release; skipped with the reason when the
//      peer cannot be built here).
//   3. callgrind counts instructions (CallgrindRun): the facade and plain C runs collect inside
//      their loops only (--toggle-collect), so nanopb's entry points and allocator in their
//      listings are the loops' own share: the split the summary gives a missed goal.
//   4. The facade decode fuzz target against the plain C one on fixed inputs (`wireproof fuzz rate
//      --fixed-only`, which builds the two targets first; BENCH_FUZZ=0 skips it).
//   5. Peak memory on the hostile inputs of docs/sanitizers.md (scripts/peak-memory.sh; BENCH_PEAK=0 skips it).
// Results go into results.json (key "ratios") for the summary.

import Foundation

enum RatioStep {
    static func run(_ settings: BenchSettings, tools: BenchTools) throws {
        let out = settings.out, work = settings.ratiosWork
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: settings.cppFolder, withIntermediateDirectories: true)
        let clock = ProgressClock(name: "ratios")
        try BenchShell.run([CodecTimingStep.codecBenchWithoutDebugInfo(settings), "dump", out + "/rtm.pb", work],
                           log: work + "/dump.log", failure: "CodecBench dump failed")
        let codecC = settings.releaseBuild(.default) + "/release/CodecC"
        guard FileManager.default.isExecutableFile(atPath: codecC) else {
            throw BenchRunError.stepFailed(what: "\(codecC) missing (the release build makes it)", logTail: "")
        }
        // Linked by the Swift toolchain: valgrind 3.19 gives up on its DWARF as on the Swift probes'.
        let codecCNoDebug = work + "/CodecC.nodebug"
        try BenchShell.run(["strip", "-g", "-o", codecCNoDebug, codecC], log: work + "/strip.log", failure: "strip -g of CodecC failed")

        let cpp = LibprotobufPrograms(folder: settings.cppFolder,
                                      protos: try ScratchPackage.protoFiles(under: "Protos/rtm").filter { !$0.contains("/") }.map { "rtm/" + $0 })
        try cpp.build(clock: clock)

        clock.say("building codec-speed-swiftprotobuf (protoc-gen-swift's code of Protos/, release)")
        var swiftProtobuf: String?
        let peerLog = work + "/swiftprotobuf-build.log", peerOut = peerLog + ".stdout"
        let status = try BenchShell.status(try tools.peerTool() + ["swiftprotobuf-peer", "codec-speed"], log: peerOut, stderr: peerLog,
                                           environment: tools.peerEnvironment)
        if status == 0 {
            let stripped = work + "/codec-speed-swiftprotobuf.nodebug"
            let built = try BenchShell.read(peerOut).trimmingCharacters(in: .whitespacesAndNewlines)
            try BenchShell.run(["strip", "-g", "-o", stripped, built], log: work + "/strip.log", failure: "strip -g of codec-speed-swiftprotobuf failed")
            swiftProtobuf = stripped
        } else if status == ReleaseBuildStep.peerSkippedStatus {
            clock.emit("  SwiftProtobuf row skipped: \(BenchRunError.tail((try? BenchShell.read(peerLog)) ?? "", lines: 1))")
        } else {
            throw BenchRunError.failed("codec-speed-swiftprotobuf does not build", log: peerLog)
        }

        let runs = CallgrindRun.plan(codecBench: CodecTimingStep.codecBenchWithoutDebugInfo(settings), descriptorSet: out + "/rtm.pb",
                                     codecC: codecCNoDebug, full: cpp.full, lite: cpp.lite, swiftProtobuf: swiftProtobuf,
                                     work: work, chatIterations: settings.callgrindIterations,
                                     metricsIterations: settings.metricsIterations)
        try? FileManager.default.removeItem(atPath: work + "/iterations")
        for packet in RatioReport.packets {
            let size = (try? BinaryTools.fileSize("\(work)/\(packet).bin")) ?? 0
            let n = packet == "metrics" ? settings.metricsIterations : settings.callgrindIterations
            clock.say("callgrind, \(packet) packet (\(size) B), \(n) iterations: facades, nanopb C, libprotobuf full, lite"
                      + (swiftProtobuf == nil ? "" : ", SwiftProtobuf"))
            for run in runs where run.packet == packet { try run.execute() }
        }

        try runScript(enabled: settings.measureFuzzRate, knob: "BENCH_FUZZ", what: "fuzz rate", table: work + "/fuzz-rate.txt",
                      announce: "fuzz targets decode (facade) and decode_c (plain C) on fixed inputs (wireproof fuzz rate --fixed-only)",
                      command: { try tools.peerTool() + ["fuzz", "rate", "--fixed-only"] }, environment: tools.peerEnvironment, clock: clock)
        try runScript(enabled: settings.measurePeakMemory, knob: "BENCH_PEAK", what: "peak memory", table: work + "/peak-memory.txt",
                      announce: "peak memory on the hostile inputs of docs/sanitizers.md (scripts/peak-memory.sh)",
                      command: { ["bash", "scripts/peak-memory.sh"] }, environment: [:], clock: clock)

        try ReportCommand.update(settings.results) { r in
            let ratios = try RatioReport.read(work: work)
            r.ratios = ratios
            clock.emit("")
            for line in RatioReport.tableLines(ratios) { clock.emit("  " + line) }
        }
    }

    /// Runs a measuring command with its table (stdout) into `table`, then shows the table indented;
    /// when the knob turned it off, says so and removes an older table. `command` is made only when
    /// the knob is on (it may build the tool it names).
    static func runScript(enabled: Bool, knob: String, what: String, table: String, announce: String,
                          command makeCommand: () throws -> [String], environment: [String: String], clock: ProgressClock) throws {
        guard enabled else {
            clock.emit("  \(knob)=0: \(what) not measured")
            try? FileManager.default.removeItem(atPath: table)
            return
        }
        clock.say(announce)
        let command = try makeCommand()
        let log = table.replacingOccurrences(of: ".txt", with: ".log")
        let status = try BenchShell.status(command, log: table, stderr: log, environment: environment)
        BenchShell.indentedLines((try? BenchShell.read(table)) ?? "").forEach(clock.emit)
        guard status == 0 else { throw BenchRunError.failed("\(command.joined(separator: " ")) failed", log: log) }
    }
}
