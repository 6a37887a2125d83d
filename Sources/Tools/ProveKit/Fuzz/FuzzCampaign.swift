// `wireproof fuzz run TARGET SECONDS`: a campaign with its progress shown as it happens, then the end
// report, the coverage plot, and the triage of anything that crashed.

import Foundation
import ProcessSupport

/// One campaign of one target. Outcome: returns when the campaign ran and nothing broke; throws
/// `FuzzError` when something crashed (after triaging it), nothing ran, or the fuzzer failed.
struct FuzzCampaign {
    let build: FuzzBuild
    let settings: CampaignSettings
    var workspace: FuzzWorkspace { build.workspace }

    func run(_ target: FuzzTarget, seconds: Int) throws {
        guard seconds >= 0 else { throw FuzzError("SECONDS must be a whole number") }
        let executable = try build.binary(target)
        let fm = FileManager.default
        for folder in [workspace.corpus(target), workspace.crashes(target)] { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let before = FuzzWorkspace.files(under: workspace.corpus(target)).count
        let log = workspace.log(target)
        printOut("fuzz: \(target.rawValue) for \(seconds) s; progress below (libFuzzer: #execs, cov = edges, ft = features, corp = entries)")
        let arguments = LibFuzzerArguments(workspace: workspace).campaign(target, seconds: seconds, settings: settings)
        let exported = build.environment.exported
        // Bounded: libFuzzer stops itself after `seconds`; a fuzzer still running long after that is stopped.
        let deadline = Date().addingTimeInterval(Double(seconds) * 2 + 600)
        let status: Int32
        if settings.jobs > 1 {
            // Workers write fuzz-<n>.log into the current folder: the target's work folder here.
            let pid = try ChildProcess.launchIntoLog(executable, arguments, log: "/dev/null", in: workspace.work(target), environment: exported)
            status = Self.wait(pid, until: deadline, following: nil)
            let workerLogs = (try fm.contentsOfDirectory(atPath: workspace.work(target)))
                .filter { $0.hasPrefix("fuzz-") && $0.hasSuffix(".log") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var joined = Data()
            for name in workerLogs {
                let path = "\(workspace.work(target))/\(name)"
                joined.append(fm.contents(atPath: path) ?? Data())
                try fm.removeItem(atPath: path)
            }
            try joined.write(to: URL(fileURLWithPath: log))
            let progress = String(decoding: joined, as: UTF8.self).split(separator: "\n").filter { $0.first == "#" && CampaignReport.isProgress($0) }
            for line in progress.suffix(5) { printOut(String(line)) }
        } else {
            let pid = try ChildProcess.launchIntoLog(executable, arguments, log: log, environment: exported)
            status = Self.wait(pid, until: deadline, following: log)
        }
        let logText = String(decoding: fm.contents(atPath: log) ?? Data(), as: UTF8.self)
        let report = CampaignReport(log: logText)
        let after = FuzzWorkspace.files(under: workspace.corpus(target)).count
        for line in report.lines(target: target, seconds: seconds, corpus: workspace.corpus(target), before: before, after: after) { printOut(line) }
        let plot = workspace.work(target) + "/coverage.png"
        let plotted = try ChildProcess.runShowingOutput("/usr/bin/python3", [workspace.root + "/scripts/fuzz-plot.py", log, plot, target.rawValue])
        if plotted == 0 { printOut("  coverage over time:    \(plot)") }
        let crashes = FuzzWorkspace.files(under: workspace.crashes(target))
        printOut(CampaignReport.row("crashes", "\(crashes.count)"))
        if !crashes.isEmpty {
            for crash in crashes { try FuzzTriage(build: build).triage(target, crash) }
            throw FuzzError("\(target.rawValue) crashed \(crashes.count) time(s); triage above")
        }
        guard CampaignReport.executedAnything(logText) else { throw FuzzError("\(target.rawValue) executed nothing (see \(log))") }
        guard status == 0 else { throw FuzzError("\(target.rawValue) exited with status \(status) (see \(log))") }
    }

    /// Waits for `pid`, showing the progress lines its log gains meanwhile when `following` names
    /// the log; past `deadline` the child is stopped. Returns its exit status.
    static func wait(_ pid: pid_t, until deadline: Date, following log: String?) -> Int32 {
        var follower = log.map { LogFollower(path: $0) }
        while true {
            if let status = ChildProcess.exitStatus(of: pid) {
                for line in follower?.newProgressLines(final: true) ?? [] { printOut(line) }
                return status
            }
            for line in follower?.newProgressLines(final: false) ?? [] { printOut(line) }
            if Date() > deadline {
                printOut("fuzz: still running past its time; stopped")
                return ChildProcess.stop(pid, signal: SIGKILL)
            }
            usleep(200_000)
        }
    }
}
