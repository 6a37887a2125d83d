// `wireproof check-foreign`: the whole proof on schemas this project has never seen, and the
// refusals and links a real schema meets.
//   1. every run of ForeignRuns through `wireproof prove`, one after the other in ONE scratch package
//      (.scratch/foreign/prove: the runtime and oracle compile once; each schema rebuilds only its
//      generated targets), each with a stand-in protoc first on PATH that logs its calls: a proof
//      that passes must have compiled its schema exactly once;
//   2. the expected refusals and the expected device crash (ForeignExpectations);
//   3. two schemas sharing imports linked into one program (`wireproof link-check`).
// Steps 2 and 3 run only on a whole check (no --only). Each prove is a child process of this one,
// its output into results/<name>.log: the prover writes its progress, and its builds and runners
// write theirs, straight to the process's own stdout and stderr, and the protoc count needs a PATH
// of its own per proof; a child gets both without this process redirecting its own descriptors
// or changing its own environment, and a crash in one proof ends only that row.

import Foundation
import ProofSupport

/// One check. Owns `scratch` (.scratch/foreign): it empties `results` at the start of each run
/// and keeps the scratch packages so a rerun rebuilds only what changed.
struct ForeignCheck {
    let root: String
    /// The `wireproof` executable each proof runs (this one).
    let wireproof: String
    let mutants: Int
    let only: [String]
    /// Progress and tables (stdout).
    let say: (String) -> Void

    var scratch: String { root + "/.scratch/foreign" }
    var results: String { scratch + "/results" }

    /// Runs the check; returns the failures (empty when everything held).
    func run() throws -> [String] {
        let started = Date()
        let fm = FileManager.default
        try? fm.removeItem(atPath: results)
        try fm.createDirectory(atPath: results, withIntermediateDirectories: true)
        let corpus = ForeignCorpus(root: root)
        let schemas = try ForeignRuns.schemas(corpus: try corpus.layOutAndList(say: say), root: root, only: only)
        let runs = ForeignRuns.runs(schemas: schemas, corpusFolder: corpus.folder, selected: !only.isEmpty)
        let counting = try writeCountingProtoc()
        let plugin = peerPlugin()
        var failures: [String] = [], entries: [ForeignTable.Entry] = []

        // 1. The proof on each schema.
        for (index, run) in runs.enumerated() {
            let log = results + "/" + run.name + ".log", protocLog = results + "/" + run.name + ".protoc"
            let clock = Date()
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            let status = try ChildProcess.runIntoLog(
                wireproof, run.proveArguments(scratch: scratch + "/prove", mutants: mutants, json: results + "/" + run.name + ".json"),
                log: log, environment: ["PATH": counting + ":" + path, "PROTOC_LOG": protocLog].merging(plugin) { $1 })
            let seconds = Int(Date().timeIntervalSince(clock))
            try Data("\(seconds)\n".utf8).write(to: URL(fileURLWithPath: results + "/" + run.name + ".seconds"))
            let output = Self.read(log)
            for line in Self.runLines(run.name, index: index, of: runs.count, status: status, seconds: seconds, output: output) { say(line) }
            failures += Self.runFailures(run.name, status: status, protocCalls: Self.read(protocLog),
                                         protocLog: relative(protocLog), log: relative(log))
            entries.append(.init(name: run.name, summary: ForeignTable.summary(at: results + "/" + run.name + ".json"), seconds: seconds))
        }

        if only.isEmpty {
            // 2. The refusals, then the device crash; 3. two schemas in one program.
            let proto2 = scratch + "/test_messages_proto2"
            try? fm.removeItem(atPath: proto2)
            try fm.createDirectory(atPath: proto2 + "/google/protobuf", withIntermediateDirectories: true)
            try fm.copyItem(atPath: root + "/.deps/protobuf/src/google/protobuf/test_messages_proto2.proto",
                            toPath: proto2 + "/google/protobuf/test_messages_proto2.proto")
            let fixedCount = corpus.folder + "/nanopb-fixed_count"
            for (expectation, folder, package) in [(ForeignExpectation.proto2Groups, proto2, "prove-refused"),
                                                   (.optionNotHonoured, fixedCount, "prove-refused"), (.deviceCrash, fixedCount, "prove")] {
                let log = results + "/" + expectation.logName + ".log"
                let status = try ChildProcess.runIntoLog(wireproof, expectation.arguments(folder) + ["--scratch", scratch + "/" + package], log: log,
                                                         environment: plugin)
                let output = Self.read(log)
                if let failure = expectation.failure(status: status, output: output, log: relative(log)) {
                    failures.append(failure)
                } else {
                    say(expectation.passed)
                    for line in expectation.shown(output) { say("    " + line) }
                }
            }
            let clock = Date(), log = results + "/linked.log"
            if try ChildProcess.runIntoLog(wireproof, ["link-check", "--scratch", root + "/.scratch/linked"], log: log) == 0 {
                say("check-foreign: two schemas linked into one program in \(Int(Date().timeIntervalSince(clock)))s:")
            } else {
                failures.append("two schemas in one program: wireproof link-check failed (log: \(relative(log)))")
            }
            for line in Self.linkedTail(Self.read(log)) { say("    " + line) }
        }

        say("")
        say(ForeignTable.render(entries))
        say("check-foreign: \(Int(Date().timeIntervalSince(started)))s")
        if failures.isEmpty { say(Self.okLine(runs: runs.count, schemas: schemas.count, whole: only.isEmpty)) }
        return failures
    }

    /// What the check says of one proof: its row (position, name, exit status, seconds, verdict),
    /// then, only when the prove failed, the lines of its output that say why, indented.
    static func runLines(_ name: String, index: Int, of count: Int, status: Int32, seconds: Int, output: String) -> [String] {
        ["check-foreign [\(index + 1)/\(count)] \(ForeignTable.left(name, 30)) exit \(status) in "
            + "\(ForeignTable.right(String(seconds), 3))s  \(verdictLine(output))"]
            + (status != 0 ? failureLines(output).map { "    " + $0 } : [])
    }

    /// What one prove's exit status and protoc calls fail: a passing prove that compiled its
    /// schema other than once, or a prove that did not pass.
    static func runFailures(_ name: String, status: Int32, protocCalls: String, protocLog: String, log: String) -> [String] {
        if status != 0 { return ["\(name): wireproof prove exited \(status) (log: \(log))"] }
        return compilationFailure(name, calls: protocCalls, log: protocLog).map { [$0] } ?? []
    }

    /// The last four lines of link-check's output (none when it printed nothing).
    static func linkedTail(_ linked: String) -> [String] {
        guard !linked.isEmpty else { return [] }
        return Array(ForeignExpectation.lines(String(linked.dropLast(linked.hasSuffix("\n") ? 1 : 0))).suffix(4))
    }

    /// The closing line of a check with no failure; a whole check (no --only) names its further steps.
    static func okLine(runs: Int, schemas: Int, whole: Bool) -> String {
        "check-foreign: ok (\(runs) proofs of \(schemas) schemas passed"
            + (whole ? "; test_messages_proto2 and an option that cannot be honoured refused; the device crash in nanopb fixed_count found; two schemas linked into one program" : "")
            + ")"
    }

    /// The last "prove: PROVED|FAILED" line of a prove's output, else its last "prove: " line
    /// that is not the "done in" one, else "".
    static func verdictLine(_ output: String) -> String {
        let lines = ForeignExpectation.lines(output)
        return lines.last { $0.hasPrefix("prove: PROVED") || $0.hasPrefix("prove: FAILED") }
            ?? lines.last { $0.hasPrefix("prove: ") && !$0.contains("done in") } ?? ""
    }

    /// At most 15 lines of a failed prove's output that say what failed.
    static func failureLines(_ output: String) -> [String] {
        Array(ForeignExpectation.lines(output).filter {
            ($0.contains("FAIL") || $0.contains("error:") || $0.contains("refused") || $0.contains("prove: ")) && !$0.contains("done in")
        }.prefix(15))
    }

    /// nil when the protoc calls logged hold exactly one compilation (a call that reads no
    /// descriptor set), else the failure naming the count.
    static func compilationFailure(_ name: String, calls: String, log: String) -> String? {
        let compilations = ForeignExpectation.lines(calls).filter { !$0.isEmpty && !$0.contains("--descriptor_set_in") }.count
        return compilations == 1 ? nil : "\(name): protoc compiled the schema \(compilations) times, not once (calls: \(log))"
    }

    /// The SwiftProtobuf peer's protoc-gen-swift, built once here for every proof (each would
    /// otherwise resolve and build the peer package again: about 5 s a proof) and handed to them in
    /// the environment; empty when it cannot be built here, so each proof says why its peer is off.
    private func peerPlugin() -> [String: String] {
        do {
            return [SwiftProtobufPeer.builtPluginVariable: try SwiftProtobufPeer.fromEnvironment(root: root).buildPlugin()]
        } catch {
            say("check-foreign: the SwiftProtobuf peer's protoc-gen-swift did not build here (\(error)); each proof tries again")
            return [:]
        }
    }

    /// A protoc first on PATH that appends each call's arguments to $PROTOC_LOG, then runs the real one.
    private func writeCountingProtoc() throws -> String {
        guard let protoc = ChildProcess.executableOnPath("protoc") else { throw ProveError(description: "no protoc on PATH; run 'make setup'") }
        let folder = scratch + "/protoc-counting"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = "#!/bin/sh\necho \"$*\" >> \"$PROTOC_LOG\"\nexec \(protoc) \"$@\"\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: folder + "/protoc"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/protoc")
        return folder
    }

    /// A log a failure names, relative to the tree when inside it.
    private func relative(_ path: String) -> String { RootPath.shown(path, under: root) }

    private static func read(_ path: String) -> String {
        (try? ChildProcess.readFile(path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
