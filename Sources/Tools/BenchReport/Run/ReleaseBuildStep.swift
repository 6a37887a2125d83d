// Step 3 of `make bench`: the scratch package in both release configurations, each probe run
// once, the sizes of their stripped copies, and (3b) the SizePacket source built against
// SwiftProtobuf 1.38.1 (`wireproof swiftprotobuf-peer size-probe`) in both configurations.

import Foundation

enum ReleaseBuildStep {
    /// `swift build -c release` of the scratch package in `configuration`, into its own scratch path.
    static func buildCommand(_ settings: BenchSettings, package: String, _ configuration: ReleaseConfiguration) -> [String] {
        [settings.swift, "build", "-c", "release", "--package-path", package,
         "--scratch-path", settings.releaseBuild(configuration)] + configuration.buildFlags
    }

    /// `wireproof swiftprotobuf-peer size-probe` for `configuration` (its scratch path under BENCH_TMP).
    static func peerSizeProbeCommand(_ settings: BenchSettings, wireproof: [String], _ configuration: ReleaseConfiguration) -> [String] {
        wireproof + ["swiftprotobuf-peer", "size-probe", "--", "--scratch-path",
                     settings.temporary + "/swiftprotobuf-" + configuration.rawValue] + configuration.buildFlags
    }

    /// The exit status by which `wireproof swiftprotobuf-peer` says the peer cannot be built here.
    static let peerSkippedStatus: Int32 = 3

    static func run(_ settings: BenchSettings, package: String, scratch: ScratchPackage, tools: BenchTools,
                    clock: ProgressClock) throws {
        let out = settings.out
        for configuration in ReleaseConfiguration.allCases {
            let flags = configuration.buildFlags
            clock.say("3/5 swift build -c release (\(configuration.rawValue)\(flags.isEmpty ? "" : ": " + flags.joined(separator: " ")))")
            let started = Date()
            let log = "\(out)/build-\(configuration.rawValue).log"
            try BenchShell.run(buildCommand(settings, package: package, configuration), log: log,
                               failure: "release build (\(configuration.rawValue)) failed; log: \(log)", tailLines: 40)
            clock.emit("  built in \(Int(Date().timeIntervalSince(started)))s")
        }
        for configuration in ReleaseConfiguration.allCases {
            for exe in SizeReport.probes {
                let binary = "\(settings.releaseBuild(configuration))/release/\(exe)"
                guard try BenchShell.status([binary, "probe"], log: "/dev/null") == 0 else {
                    throw BenchRunError.stepFailed(what: "\(configuration.rawValue)/\(exe) does not run", logTail: "")
                }
            }
        }
        clock.emit("")
        clock.say("3/5 sizes: stripped copies, `size`, `nm -S` attribution")
        try ReportCommand.update(settings.results) {
            try SizeReport.measure(ReleaseConfiguration.allCases.map { ($0.rawValue, settings.releaseBuild($0)) },
                                   outDirectory: out, allCount: scratch.allCount, oneCount: scratch.oneCount,
                                   into: &$0, print: clock.emit)
        }

        // 3b. Benchmarks/SizePacket/main.swift, unchanged but for its import, against protoc-gen-swift's
        // code for Protos/ in the SwiftProtobuf peer package; the baseline is the same SizeBaseline.
        clock.emit("")
        var peerBuilds: [(name: String, executable: String)] = []
        for configuration in ReleaseConfiguration.allCases {
            clock.say("3/5 SwiftProtobuf 1.38.1: the SizePacket source against protoc-gen-swift's code (\(configuration.rawValue))")
            let log = "\(out)/swiftprotobuf-\(configuration.rawValue).log"
            let path = log + ".stdout"
            let status = try BenchShell.status(peerSizeProbeCommand(settings, wireproof: try tools.peerTool(), configuration),
                                               log: path, stderr: log, environment: tools.peerEnvironment)
            let executable = ((try? BenchShell.read(path)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if status == 0 {
                guard try BenchShell.status([executable, "probe"], log: "/dev/null") == 0 else {
                    throw BenchRunError.stepFailed(what: "\(configuration.rawValue) SwiftProtobuf size probe does not run", logTail: "")
                }
                peerBuilds.append((configuration.rawValue, executable))
            } else if status == peerSkippedStatus {
                clock.emit("  bench-swiftprotobuf: skipped: \(BenchRunError.tail((try? BenchShell.read(log)) ?? "", lines: 1))")
            } else {
                throw BenchRunError.failed("the SwiftProtobuf size probe failed (\(configuration.rawValue))", log: log)
            }
        }
        if !peerBuilds.isEmpty {
            try ReportCommand.update(settings.results) {
                try PeerSizeReport.measure(peerBuilds, outDirectory: out, into: &$0, print: clock.emit)
            }
        }
    }
}
