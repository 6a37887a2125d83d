// Step 3 of a bench run with stand-ins: a /bin/sh `swift` that logs its release builds, probe
// executables linked by binutils from a few instructions (they exit 0, and strip, size, nm and
// readelf read them), and a /bin/sh `wireproof` for the SwiftProtobuf peer. Both configurations
// are built, every probe must run, both are sized, and the peer is measured or skipped by
// its exit status.

import Foundation
import Testing
@testable import BenchReport

@Suite struct ReleaseBuildStepTests {
    static let clock = ProgressClock(name: "test")

    /// A scratch BENCH_TMP with a logging `swift`, the peer `wireproof` running `peerScript`, and
    /// every probe of both configurations linked in place (`failing` exits 1 instead).
    static func stage(peerScript: String, failing: String? = nil) throws -> (ScratchFolder, BenchSettings) {
        let folder = try ScratchFolder()
        try folder.write("#!/bin/sh\necho \"$*\" >> \"\(folder.path)/calls\"\n", to: "swift", mode: 0o755)
        try folder.write("#!/bin/sh\n" + peerScript, to: "wireproof", mode: 0o755)
        let settings = try BenchSettings(environment: ["BENCH_TMP": folder.path + "/tmp", "SWIFT": folder.path + "/swift",
                                                       "WIREPROOF_TOOL": folder.path + "/wireproof"])
        try FileManager.default.createDirectory(atPath: settings.out, withIntermediateDirectories: true)
        try ProbeObjects.link(status: 0, to: folder.path + "/probe")
        try ProbeObjects.link(status: 1, to: folder.path + "/broken")
        try ProbeObjects.link(status: 0, data: 100, to: folder.path + "/peer")
        // Copied through close-on-exec descriptors (FileManager.copyItem's could be inherited by
        // children of parallel tests and make the probes "Text file busy").
        let probe = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/probe")))
        let broken = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/broken")))
        for configuration in ReleaseConfiguration.allCases {
            let release = String(settings.releaseBuild(configuration).dropFirst(folder.path.count + 1)) + "/release/"
            for exe in SizeReport.probes {
                try folder.write(bytes: exe == failing ? broken : probe, to: release + exe, mode: 0o755)
            }
        }
        return (folder, settings)
    }

    static func scratch() -> ScratchPackage {
        var s = ScratchPackage()
        s.allCount = 11
        s.oneCount = 3
        return s
    }

    /// A peer `wireproof` that builds for the default configuration and says "skipped" (status 3,
    /// with its reason on stderr) for the stripped one; it logs its calls.
    static let peerBuiltForDefaultOnly = """
        echo "$@" >> "$(dirname "$0")/peer-calls"
        case "$*" in
          *swiftprotobuf-stripped*) echo 'no SwiftProtobuf mirror here' >&2; exit 3 ;;
        esac
        echo "$(dirname "$0")/peer"

        """

    /// One run measuring every path at once (each run costs ~70 short children): the peer
    /// builds for the default configuration and says "skipped" (status 3) for the stripped one.
    @Test func bothConfigurationsAreBuiltRunAndSizedWithTheBuiltPeerSizedAndTheSkippedOneLeftOut() throws {
        let (folder, settings) = try Self.stage(peerScript: Self.peerBuiltForDefaultOnly)
        defer { folder.remove() }
        try ReleaseBuildStep.run(settings, package: "/pkg", scratch: Self.scratch(), tools: BenchTools(settings, root: "/r"),
                                 clock: Self.clock)
        let builds = try folder.read("calls").split(separator: "\n").map(String.init)
        #expect(builds == ReleaseConfiguration.allCases.map {
            ReleaseBuildStep.buildCommand(settings, package: "/pkg", $0).dropFirst().joined(separator: " ")
        })
        let results = try BenchResults.load(settings.results)
        #expect(results.sizes.map { Set($0.keys) } == ["default", "stripped"])
        #expect(results.sizes?["stripped"]?.executables["SizeAll"]?.data == 24)
        #expect(results.messagesAll == 11 && results.messagesOnePruned == 3)
        let peer = try #require(results.swiftProtobufSizes)
        #expect(Array(peer.keys) == ["default"])
        #expect(peer["default"]?.added == 100 - 24, "the peer differs from SizeBaseline by its larger table only")
        #expect(try folder.read("peer-calls").split(separator: "\n").count == 2)
    }

    @Test func aProbeThatDoesNotRunStopsTheStep() throws {
        let (folder, settings) = try Self.stage(peerScript: "exit 3\n", failing: "SizeOne")
        defer { folder.remove() }
        #expect(throws: BenchRunError.stepFailed(what: "default/SizeOne does not run", logTail: "")) {
            try ReleaseBuildStep.run(settings, package: "/pkg", scratch: Self.scratch(), tools: BenchTools(settings, root: "/r"),
                                     clock: Self.clock)
        }
    }

    @Test func theStepPrintsEachBuildThenTheSizesThenThePeerWithABlankLineBeforeEachPart() throws {
        let (folder, settings) = try Self.stage(peerScript: Self.peerBuiltForDefaultOnly)
        defer { folder.remove() }
        let printed = PrintedLines()
        try ReleaseBuildStep.run(settings, package: "/pkg", scratch: Self.scratch(), tools: BenchTools(settings, root: "/r"),
                                 clock: printed.clock())
        let results = try BenchResults.load(settings.results)
        var sizeLines: [String] = []
        SizeReportText.print(["default", "stripped"], sizes: try #require(results.sizes), figures: try #require(results.sizeFigures),
                             allCount: 11, oneCount: 3, print: { sizeLines.append($0) })
        let stripped = ReleaseConfiguration.stripped.buildFlags.joined(separator: " ")
        let peer = "3/5 SwiftProtobuf 1.38.1: the SizePacket source against protoc-gen-swift's code"
        #expect(printed.lines(replacing: [(#"^  built in \d+s$"#, "  built in Ns")]) == [
            "[test] 3/5 swift build -c release (default)",
            "  built in Ns",
            "[test] 3/5 swift build -c release (stripped: \(stripped))",
            "  built in Ns",
            "",
            "[test] 3/5 sizes: stripped copies, `size`, `nm -S` attribution",
        ] + sizeLines + [
            "",
            "[test] \(peer) (default)",
            "[test] \(peer) (stripped)",
            "  bench-swiftprotobuf: skipped: no SwiftProtobuf mirror here",
            "\n  SwiftProtobuf 1.38.1: the same SizePacket source against protoc-gen-swift's code, vs SizeBaseline",
            "    [default] SwiftProtobuf +76 B text+data (0.1 KiB); facades ÷ SwiftProtobuf: all types 0.00 (goal <= 0.2), "
                + "pruned 0.00 (goal <= 0.1)",
        ])
    }

    @Test func aFailedReleaseBuildShowsTheLastFortyLinesOfItsLog() throws {
        let (folder, settings) = try Self.stage(peerScript: "exit 3\n")
        defer { folder.remove() }
        try folder.write("#!/bin/sh\nseq 1 45\nexit 1\n", to: "swift", mode: 0o755)
        let printed = PrintedLines()
        let log = settings.out + "/build-default.log"
        #expect(throws: BenchRunError.stepFailed(what: "release build (default) failed; log: \(log)",
                                                 logTail: (6...45).map(String.init).joined(separator: "\n"))) {
            try ReleaseBuildStep.run(settings, package: "/pkg", scratch: Self.scratch(), tools: BenchTools(settings, root: "/r"),
                                     clock: printed.clock())
        }
        #expect(printed.lines() == ["[test] 3/5 swift build -c release (default)"])
    }

    /// How the step stops when the peer `wireproof` runs `peerScript` (nil: it does not stop).
    static func failure(peerScript: String) throws -> BenchRunError? {
        let (folder, settings) = try Self.stage(peerScript: peerScript)
        defer { folder.remove() }
        do {
            try ReleaseBuildStep.run(settings, package: "/pkg", scratch: Self.scratch(), tools: BenchTools(settings, root: "/r"),
                                     clock: PrintedLines().clock())
            return nil
        } catch let error as BenchRunError {
            return error
        }
    }

    @Test func aPeerSizeProbeThatFailsOtherwiseThanSkippingStopsTheStepWithItsStderr() throws {
        #expect(try Self.failure(peerScript: "echo 'peer build broke' >&2\nexit 2\n")
                == .stepFailed(what: "the SwiftProtobuf size probe failed (default)", logTail: "peer build broke"))
    }

    @Test func aBuiltPeerProbeThatDoesNotRunStopsTheStep() throws {
        #expect(try Self.failure(peerScript: "echo \"$(dirname \"$0\")/broken\"\n")
                == .stepFailed(what: "default SwiftProtobuf size probe does not run", logTail: ""))
    }
}
