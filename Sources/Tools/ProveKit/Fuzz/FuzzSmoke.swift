// `wireproof fuzz smoke [SECONDS]`, the CI leg (`make fuzz-smoke`): build, every target for SECONDS,
// the regression replay through every binary, then ClusterFuzzLite's build.sh into a scratch $OUT.

import Foundation
import ProcessSupport

/// The smoke leg. Invariant: a failed campaign, replay or ClusterFuzzLite check does not stop the
/// steps after it (each failure is reported, the leg fails at the end); a failed build does.
struct FuzzSmoke {
    let build: FuzzBuild
    let settings: CampaignSettings
    var workspace: FuzzWorkspace { build.workspace }

    /// One step of the leg.
    enum Step: Equatable {
        case build
        case campaign(FuzzTarget, seconds: Int)
        case replayRegressions(FuzzTarget)
        case clusterFuzzLiteCheck
    }

    /// The steps, in order: the build, a campaign per target, a replay per target, the
    /// ClusterFuzzLite check.
    static func plan(seconds: Int) -> [Step] {
        [.build] + FuzzTarget.allCases.map { .campaign($0, seconds: seconds) } + FuzzTarget.allCases.map { .replayRegressions($0) }
            + [.clusterFuzzLiteCheck]
    }

    /// Runs the plan; returns whether every step passed (having printed "fuzz-smoke: ok" or
    /// "fuzz-smoke: FAILED").
    func run(seconds: Int) throws -> Bool {
        var failed = false
        for step in Self.plan(seconds: seconds) {
            switch step {
            case .build:
                try build.build()
            case .campaign(let target, let seconds):
                do { try FuzzCampaign(build: build, settings: settings).run(target, seconds: seconds) } catch let error as FuzzError {
                    printError("fuzz: \(error)")
                    failed = true
                }
            case .replayRegressions(let target):
                failed = try !replayRegressions(target) || failed
            case .clusterFuzzLiteCheck:
                printOut("fuzz: ClusterFuzzLite build.sh into a scratch $OUT")
                // build.sh runs `wireproof fuzz`: this very executable, never a second build of it.
                // (Foundation's resolvingSymlinksInPath leaves /proc/self/exe as it is; readlink does not.)
                let tool = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
                failed = try ChildProcess.runShowingOutput("/bin/bash", [workspace.root + "/scripts/cflite-check.sh"], in: workspace.root,
                                                           environment: ["WIREPROOF_TOOL": tool]) != 0 || failed
            }
        }
        printOut(failed ? "fuzz-smoke: FAILED" : "fuzz-smoke: ok")
        return !failed
    }

    /// Replays Corpus/regressions through `target`, its output in the target's replay.log (the last
    /// 30 lines shown when it fails); prints how many inputs ran.
    private func replayRegressions(_ target: FuzzTarget) throws -> Bool {
        printOut("fuzz: replaying Corpus/regressions through \(target.rawValue)")
        try FileManager.default.createDirectory(atPath: workspace.work(target), withIntermediateDirectories: true)
        let log = workspace.work(target) + "/replay.log"
        let inputs = try FileManager.default.contentsOfDirectory(atPath: workspace.regressions)
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { "\(workspace.regressions)/\($0)" }
        let status = try FuzzCorpusWork(build: build).replay(target, inputs, output: log)
        let lines = String(decoding: try ChildProcess.readFile(log), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if status != 0 { for line in lines.dropLast().suffix(30) { printOut(String(line)) } }
        printOut("  inputs replayed: \(lines.filter { $0.hasPrefix("Executed ") }.count)")
        return status == 0
    }
}
