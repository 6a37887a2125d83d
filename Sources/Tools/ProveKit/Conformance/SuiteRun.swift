// One run of Google's conformance suite against one host: the runner's command line, its log, and
// the lines of that log a reader needs.

import Foundation
import ProcessSupport

/// The runner against one host. The runner itself judges the run against the failure list: any
/// failure not listed, a listed test that passes and a listed name that does not exist each make it
/// exit non-zero, and that status is the run's verdict.
struct SuiteRun {
    /// The host's name in every printed line ("facades", "swiftprotobuf").
    let name: String
    /// The runner executable.
    let runner: String
    /// The host executable the runner starts (the testee).
    let host: String
    /// The failure list: exact test names, `#` comments.
    let failureList: String
    /// The run's own folder (replaced): runner.log and the runner's output files.
    let folder: String

    /// The files the runner writes into its output folder when a run disagrees with the list.
    static let verdictFiles = ["failing_tests.txt", "succeeding_tests.txt", "nonexistent_tests.txt"]

    /// The runner's arguments: recommended tests enforced, the list, the output folder, the host.
    var arguments: [String] { ["--enforce_recommended", "--failure_list", failureList, "--output_dir", folder, host] }

    /// Runs the suite (in `folder`, output into folder/runner.log), prints the excerpt and every
    /// non-empty verdict file through `say`, and returns the runner's exit status.
    func run(say: (String) -> Void) throws(ConformanceError) -> Int32 {
        let files = FileManager.default
        try? files.removeItem(atPath: folder)
        let log = folder + "/runner.log"
        let status: Int32
        do {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            status = ChildProcess.waitForExit(try ChildProcess.launchIntoLog(runner, arguments, log: log, in: folder))
        } catch {
            throw ConformanceError("cannot run the suite against \(name): \(error)")
        }
        let text = (try? ChildProcess.readFile(log)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        for line in Self.excerpt(of: text, name: name) { print(line) }
        for file in Self.verdictFiles {
            guard let content = files.contents(atPath: "\(folder)/\(file)"), !content.isEmpty else { continue }
            say("\(name) \(file):")
            for line in String(decoding: content, as: UTF8.self).split(separator: "\n") {
                print("    \(line)")
            }
        }
        say("\(name): full log \(log)")
        return status
    }

    /// The lines of a runner log worth printing: each unexpected result (`ERROR`, `WARNING`) and
    /// each "These tests ..." heading, at most `limit`, then the summary lines ("CONFORMANCE SUITE
    /// ...": the binary/JSON suite, then the text-format suite, which both hosts skip) prefixed with
    /// the host's name.
    static func excerpt(of log: String, name: String, limit: Int = 200) -> [String] {
        let lines = log.split(separator: "\n").map(String.init)
        let findings = lines.filter { $0.hasPrefix("ERROR") || $0.hasPrefix("WARNING") || $0.contains("These tests") }.prefix(limit)
        let summaries = lines.filter { $0.hasPrefix("CONFORMANCE SUITE") }.map { "\(name): \($0)" }
        return Array(findings) + summaries
    }
}
