// Step 5 of `wireproof prove --fuzz-seconds N`: a bounded libFuzzer run of the `differential` target
// (decode properties; facades / oracle / Google's parser, and SwiftProtobuf when prove's peer took
// part) over the proved schema, then, when prove ran the device party, of the `device` target
// (facades against the schema's own nanopb build, DeviceMutantCheck's judgment), N seconds each.
// The fuzz package is FuzzPackage's; the build flags are scripts/fuzz-env.sh's (FuzzEnvironment), as every fuzz build's.

import Foundation
import ProofSupport

/// One bounded fuzz run over a proved schema.
///
/// Outcome: `run()` returns 0 when no property broke, 1 when one broke (or a sanitizer fired: the
/// target exited non-zero or left a reproducer); it throws `ProveError` when the run could not be
/// set up (prove then reports exit 2). Each target's run lasts `seconds` (libFuzzer's
/// `-max_total_time`), each input at most 10 s (`-timeout`).
struct SchemaFuzzStep {
    let root: String
    /// prove's scratch package: schema.pb and the schema's generated targets.
    let scratch: String
    let seconds: Int
    /// The device party's build (device_driver, layout.json); with it the `device` target runs too.
    let device: String?
    /// prove's SwiftProtobuf peer: `.on` makes SwiftProtobuf the differential's fourth party.
    let swiftProtobuf: SwiftProtobufPeerStep.State

    /// The line naming the differential's parties.
    var partiesLine: String {
        switch swiftProtobuf {
        case .on: return "fuzz-schema: differential: four parties (facades, oracle, Google's parser, SwiftProtobuf 1.38.1)"
        case .off(let why): return "fuzz-schema: differential: three parties, without SwiftProtobuf (prove's SwiftProtobuf peer is off: \(why))"
        }
    }

    /// The targets run, in order.
    var targets: [String] { device == nil ? ["differential"] : ["differential", "device"] }

    /// The fuzz package these inputs make; throws when prove's scratch package lacks what it needs.
    func package() throws -> FuzzPackage {
        let fm = FileManager.default
        guard seconds > 0 else { throw ProveError(description: "fuzz: --fuzz-seconds must be positive, got \(seconds)") }
        for target in FuzzPackage.schemaTargets where !fm.fileExists(atPath: "\(scratch)/Sources/\(target)") {
            throw ProveError(description: "fuzz: \(scratch)/Sources/\(target) is missing (not a prove scratch package)")
        }
        guard fm.fileExists(atPath: scratch + "/schema.pb") else { throw ProveError(description: "fuzz: \(scratch)/schema.pb is missing") }
        var peer: String?
        if swiftProtobuf == .on {
            peer = "\(scratch)/Sources/\(SwiftProtobufPeerStep.target)"
            guard fm.fileExists(atPath: peer! + "/SwiftProtobufCodec.swift") else {
                throw ProveError(description: "fuzz: \(peer!) holds no SwiftProtobufCodec.swift (`wireproof swiftprotobuf-peer generate` writes it)")
            }
        }
        if let device {
            guard fm.isExecutableFile(atPath: device + "/device_driver"), fm.fileExists(atPath: device + "/layout.json") else {
                throw ProveError(description: "fuzz: \(device) holds no device_driver and layout.json")
            }
        }
        return FuzzPackage(scratch: scratch, root: root, swiftProtobuf: peer)
    }

    func run() throws -> Int32 {
        let package = try package()
        try package.write()
        let fuzzSettings: FuzzEnvironment
        do { fuzzSettings = try FuzzEnvironment.read(root: root) } catch { throw ProveError(description: "fuzz: \(error)") }
        let (flags, fuzzEnvironment) = (fuzzSettings.buildFlags, fuzzSettings.exported)
        let swift = ["swift", "build"] + flags
        for target in targets {
            ProveCommand.printOut("fuzz-schema: building the \(target) target for \(scratch) (release, -sanitize=fuzzer,address)")
            let build = try ChildProcess.run("/usr/bin/env", swift + ["--product", target], in: package.directory)
            let output = String(decoding: build.stdout + build.stderr, as: UTF8.self).split(separator: "\n")
            for line in output.suffix(3) { ProveCommand.printOut(String(line)) }
            guard build.status == 0 else { throw ProveError(description: "fuzz: the fuzz package did not build (\(target))") }
        }
        let binPath = try ChildProcess.run("/usr/bin/env", swift + ["--show-bin-path"], in: package.directory)
        let bin = String(decoding: binPath.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        for target in targets where !FileManager.default.isExecutableFile(atPath: "\(bin)/\(target)") {
            throw ProveError(description: "fuzz: the fuzz package did not build \(target)")
        }
        // The targets find the schema's descriptor set beside themselves.
        try? FileManager.default.removeItem(atPath: bin + "/wireproof.pb")
        try FileManager.default.copyItem(atPath: scratch + "/schema.pb", toPath: bin + "/wireproof.pb")
        let environment = fuzzEnvironment.merging([
            "WIREPROOF_DEVICE_DRIVER": device.map { $0 + "/device_driver" } ?? "",
            "WIREPROOF_DEVICE_LAYOUT": device.map { $0 + "/layout.json" } ?? "",
        ]) { $1 }

        var broken = false
        for target in targets {
            let work = "\(package.directory)/work/\(target)"
            let fm = FileManager.default
            try Self.prepareWorkFolder(work)
            // The differential binary writes the schema's seeds and dictionary for either target.
            let seeds = try Self.runWith(environment.merging(["WIREPROOF_WRITE_CORPUS": work]) { $1 }, bin + "/differential", [])
            guard seeds.status == 0 else { throw ProveError(description: "fuzz: could not write the schema's seeds (\(seeds.stderrText.suffix(300)))") }
            let seedCount = (try? fm.contentsOfDirectory(atPath: work + "/seeds").count) ?? 0
            ProveCommand.printOut("fuzz-schema: \(target): \(seedCount) seeds from the schema's exemplars; fuzzing \(seconds) s")
            if target == "differential" { ProveCommand.printOut(partiesLine) }
            let fuzz = try Self.runWith(environment, "\(bin)/\(target)", [
                "-max_total_time=\(seconds)", "-dict=\(work)/wireproof.dict", "-artifact_prefix=\(work)/crashes/",
                "-print_final_stats=1", "-max_len=4096", "-timeout=10", work + "/corpus", work + "/seeds"])
            let log = fuzz.stdout + fuzz.stderr
            try Data(log).write(to: URL(fileURLWithPath: work + "/fuzz.log"))
            let crashes = try fm.contentsOfDirectory(atPath: work + "/crashes").sorted().map { "\(work)/crashes/\($0)" }
            let verdict = FuzzVerdict(target: target, status: fuzz.status, crashes: crashes, log: String(decoding: log, as: UTF8.self),
                                      logPath: work + "/fuzz.log")
            for line in verdict.lines { ProveCommand.printOut(line) }
            for crash in crashes { for line in Self.triage(crash) { ProveCommand.printOut(line) } }
            broken = broken || verdict.broken
        }
        return broken ? 1 : 0
    }

    /// Readies one target's work folder for a run: the last run's seeds and reproducers go (the
    /// seeds are written again, a reproducer left over would read as this run's), the corpus
    /// libFuzzer grew stays, and `corpus` and `crashes` exist (libFuzzer refuses a corpus folder
    /// that does not, and writes reproducers only into one that does).
    static func prepareWorkFolder(_ work: String) throws {
        let fm = FileManager.default
        for sub in ["seeds", "crashes"] { try? fm.removeItem(atPath: "\(work)/\(sub)") }
        for sub in ["corpus", "crashes"] { try fm.createDirectory(atPath: "\(work)/\(sub)", withIntermediateDirectories: true) }
    }

    /// Runs `executable` with `environment` added to this process's.
    private static func runWith(_ environment: [String: String], _ executable: String, _ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(executable, arguments, environment: environment)
    }

    /// A reproducer's triage lines: its path, then protoc --decode_raw of the bytes after the first
    /// (the type selector), at most 20 lines.
    static func triage(_ crash: String) -> [String] {
        let lines = ["  reproducer: \(crash) (first byte: type selector); protoc --decode_raw of the rest:"]
        let text = FuzzTriage.decodeRaw(Array(FileManager.default.contents(atPath: crash) ?? Data()))
        return lines + text.split(separator: "\n").prefix(20).map { "    " + $0 }
    }
}

/// What one target's fuzz run showed, from its exit status, reproducers and log.
struct FuzzVerdict {
    let target: String
    let status: Int32
    let crashes: [String]
    let log: String
    let logPath: String

    /// A property broke (or a sanitizer fired): the target failed or left a reproducer.
    var broken: Bool { status != 0 || !crashes.isEmpty }

    /// The report: libFuzzer's last progress line and final stats, then the verdict and, when
    /// broken, the first line saying why.
    var lines: [String] {
        let logLines = log.split(separator: "\n").map(String.init)
        var lines: [String] = []
        if let progress = logLines.last(where: { $0.range(of: "^#[0-9]+", options: .regularExpression) != nil }) { lines.append(progress) }
        lines += logLines.filter { $0.hasPrefix("stat::number_of_executed_units") || $0.hasPrefix("stat::average_exec_per_sec") }
        guard broken else { return lines + ["fuzz-schema: \(target): no property broke"] }
        lines.append("fuzz-schema: \(target): a property broke (log: \(logPath)):")
        let causes = ["broken property", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "deadly signal"]
        if let cause = logLines.first(where: { line in causes.contains { line.contains($0) } }) { lines.append(cause) }
        return lines
    }
}
