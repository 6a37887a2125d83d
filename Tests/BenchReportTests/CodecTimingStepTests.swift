// Step 4 of a bench run with a /bin/sh stand-in for CodecBench: its `time` output becomes the
// results' timings (with no callgrind counts when callgrind is off), a failing `time` stops the
// run with its stderr, and with callgrind on the step first strips CodecBench's debug info, then
// (CodecBench a tiny linked executable) leaves one callgrind listing per counted packet.

import Foundation
import Testing
@testable import BenchReport

@Suite struct CodecTimingStepTests {
    static let clock = ProgressClock(name: "test")

    /// Settings under a fresh BENCH_TMP whose default release build holds a CodecBench stand-in
    /// with `body` as its script; it logs its arguments to `calls` in the folder.
    static func settingsWithCodecBench(_ body: String, callgrindIterations: Int) throws -> (ScratchFolder, BenchSettings) {
        let folder = try ScratchFolder()
        let settings = try BenchSettings(environment: ["BENCH_TMP": folder.path + "/tmp", "BENCH_ROUNDS": "7", "BENCH_BATCH_MS": "2",
                                                       "BENCH_CALLGRIND_ITERATIONS": String(callgrindIterations)])
        try FileManager.default.createDirectory(atPath: settings.out, withIntermediateDirectories: true)
        let bench = String(CodecTimingStep.codecBench(settings).dropFirst(folder.path.count + 1))
        try folder.write("#!/bin/sh\necho \"$*\" >> \"\(folder.path)/calls\"\n" + body, to: bench, mode: 0o755)
        return (folder, settings)
    }

    @Test func theTimeOutputBecomesTheResultsTimingsWithoutCountsWhenCallgrindIsOff() throws {
        let (folder, settings) = try Self.settingsWithCodecBench(
            "echo 'packet chat: 356 bytes'\necho 'RESULT chat facade_encode median_ns 2000 p25_ns 1900 p75_ns 2100'\necho progress >&2\n",
            callgrindIterations: 0)
        defer { folder.remove() }
        let printed = PrintedLines()
        try CodecTimingStep.run(settings, clock: printed.clock())
        #expect(try folder.read("calls") == "time \(settings.out)/rtm.pb 7 2\n")
        let results = try BenchResults.load(settings.results)
        var table: [String] = []
        for packet in results.codec ?? [] { CodecReport.printPacket(packet, [:], print: { table.append($0) }) }
        #expect(printed.lines() == ["[test] 4/5 facade vs oracle, wall time: 7 interleaved rounds of ~2 ms batches per operation",
                                    "  packet chat: 356 bytes"] + table, "the time output echoed but its RESULT lines, then the table")
        #expect(results.codec == [PacketTimings(packet: "chat", bytes: 356,
                                                operations: ["facade_encode": ["median_ns": 2000, "p25_ns": 1900, "p75_ns": 2100]])])
        #expect(results.instructions == [:])
        #expect(try String(contentsOfFile: settings.out + "/codec-time.log", encoding: .utf8) == "progress\n")
        #expect(FileManager.default.fileExists(atPath: settings.out + "/callgrind"))
    }

    @Test func aFailingTimeRunStopsTheStepWithItsStderr() throws {
        let (folder, settings) = try Self.settingsWithCodecBench("echo boom >&2\nexit 1\n", callgrindIterations: 0)
        defer { folder.remove() }
        #expect(throws: BenchRunError.stepFailed(what: "CodecBench time failed", logTail: "boom")) {
            try CodecTimingStep.run(settings, clock: Self.clock)
        }
    }

    @Test func withCallgrindOnCodecBenchIsStrippedOfDebugInfoFirst() throws {
        let (folder, settings) = try Self.settingsWithCodecBench("exit 0\n", callgrindIterations: 5)
        defer { folder.remove() }
        // A shell script is no object file: strip -g refuses it, which shows the step tried.
        let error = #expect(throws: BenchRunError.self) { try CodecTimingStep.run(settings, clock: Self.clock) }
        guard case .stepFailed(let what, _)? = error else { Issue.record("no step failure: \(String(describing: error))"); return }
        #expect(what == "strip -g of CodecBench failed")
    }

    @Test func withCallgrindOnEachCountedPacketGetsAListingOfItsValgrindRun() throws {
        let (folder, settings) = try Self.settingsWithCodecBench("", callgrindIterations: 5)
        defer { folder.remove() }
        // CodecBench is a linked executable here (strip and valgrind need one); it prints nothing.
        try ProbeObjects.link(status: 0, to: folder.path + "/exe")
        let bench = String(CodecTimingStep.codecBench(settings).dropFirst(folder.path.count + 1))
        try folder.write(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/exe"))), to: bench, mode: 0o755)
        let printed = PrintedLines()
        try CodecTimingStep.run(settings, clock: printed.clock())
        // CodecBench printed nothing: its echo is one empty line, indented.
        #expect(printed.lines() == ["[test] 4/5 facade vs oracle, wall time: 7 interleaved rounds of ~2 ms batches per operation", "  ",
                                    "[test] 4/5 facade vs oracle, instructions: valgrind --tool=callgrind, 5 iterations per operation"])
        // The packets measurements.md reports instruction counts for, named here, not read from the step.
        for packet in ["chat", "user"] {
            let listing = try String(contentsOfFile: settings.out + "/callgrind/\(packet).txt", encoding: .utf8)
            #expect(listing.contains("PROGRAM TOTALS"), "\(packet)")
        }
        let results = try BenchResults.load(settings.results)
        #expect(results.codec == [] && results.instructions == [:])
    }
}
