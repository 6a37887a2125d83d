// The corpus workflows: `minimize` (merge a campaign's corpus down to what adds coverage), `corpus`
// (regenerate Corpus/seeds, Corpus/wireproof.dict and decode_c's type table, the generated files the
// `decode` binary writes), `replay` (inputs once through a target).

import Foundation
import ProcessSupport

/// Corpus maintenance over built fuzz binaries.
struct FuzzCorpusWork {
    let build: FuzzBuild
    var workspace: FuzzWorkspace { build.workspace }

    /// Replaces the campaign's corpus of `target` by its merge with the seeds.
    func minimize(_ target: FuzzTarget) throws {
        let executable = try build.binary(target)
        let fm = FileManager.default
        let corpus = workspace.corpus(target), merged = corpus + ".min"
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: corpus, isDirectory: &isFolder), isFolder.boolValue else {
            throw FuzzError("no campaign corpus in \(corpus); run 'make fuzz TARGET=\(target.rawValue)' first")
        }
        _ = try? fm.removeItem(atPath: merged)
        try fm.createDirectory(atPath: merged, withIntermediateDirectories: true)
        let log = workspace.work(target) + "/merge.log"
        let arguments = LibFuzzerArguments(workspace: workspace).merge(target, into: merged)
        _ = try ChildProcess.runIntoLog(executable, arguments, log: log, environment: build.environment.exported)
        let output = String(decoding: try ChildProcess.readFile(log), as: UTF8.self)
        for line in output.split(separator: "\n") where line.contains("MERGE-OUTER") || line.contains("ERROR") { printOut(String(line)) }
        let before = FuzzWorkspace.files(under: corpus).count, after = FuzzWorkspace.files(under: merged).count
        try fm.removeItem(atPath: corpus)
        try fm.moveItem(atPath: merged, toPath: corpus)
        printOut("fuzz: minimized \(target.rawValue)'s corpus (with Corpus/seeds): \(before) -> \(after) entries in \(corpus)")
    }

    /// Regenerates the corpus's generated files with the `decode` binary's writers (deterministic:
    /// the same schema gives the same bytes).
    func regenerate() throws {
        let executable = try build.binary(.decode)
        _ = try? FileManager.default.removeItem(atPath: workspace.seeds)
        for (variable, value) in [("WIREPROOF_WRITE_CORPUS", workspace.root + "/Corpus"), ("WIREPROOF_WRITE_C_TABLE", workspace.cTable)] {
            let extra = LibFuzzerArguments.writerEnvironment.merging([variable: value]) { $1 }
            let status = try ChildProcess.runShowingOutput(executable, [], environment: build.environment.exported.merging(extra) { $1 })
            guard status == 0 else { throw FuzzError("the corpus writer (\(variable)) exited with status \(status)") }
        }
    }

    /// Runs `files` once through `target`, its output shown, or into `output` when given; returns
    /// the fuzzer's exit status.
    func replay(_ target: FuzzTarget, _ files: [String], output: String? = nil) throws -> Int32 {
        let executable = try build.binary(target)
        let arguments = LibFuzzerArguments.replay(files)
        if let output {
            return try ChildProcess.runIntoLog(executable, arguments, log: output, environment: build.environment.exported)
        }
        return try ChildProcess.runShowingOutput(executable, arguments, environment: build.environment.exported)
    }
}
