// The steps of `wireproof prove`, in order; each one reports what it did and how long it took.

import DeviceProof
import FacadeProof
import Foundation
import OracleCheck
import ProofSupport
import ProtoGenKit

/// Why the proof could not be carried out (as opposed to a check failing).
struct ProveError: Error, CustomStringConvertible {
    let description: String
}

/// The JSON summary `--json` writes.
struct ProveSummary: Codable {
    struct Oracle: Codable { var agreed = 0, disagreed = 0, excluded = 0, random = 0 }
    var protoDirectory: String
    var passed = false
    var oracle = Oracle()
    /// Seconds per step, by step name.
    var seconds: [String: Double] = [:]
    /// The runner's report (exemplars, mutation, deviations), when it ran.
    var proof: SchemaProofReport?
    /// The fuzz step's outcome, when it ran: "passed", or "failed (exit N)" (1 a property broke, 2 setup failed).
    var fuzz: String?
    /// The device party's report, when it ran; else why it did not (`deviceSkipped`).
    var device: DeviceProofReport?
    var deviceSkipped: String?
    /// Why the run stopped early, when it did.
    var error: String?
    /// The SwiftProtobuf peer: "on", or "off: why".
    var swiftProtobuf: String?
}

struct Prover {
    let options: ProveCommand.Options
    let root: String
    let protoDirectory: String
    let scratch: String
    /// Where the oracle's table, its disagreements and the verdict go (standard output unless a
    /// test collects them).
    var printOut: @Sendable (String) -> Void = { ProveCommand.printOut($0) }
    /// Where progress, skipped parties and why the run stopped go (standard error unless a test
    /// collects them).
    var printError: @Sendable (String) -> Void = { ProveCommand.printError($0) }

    /// Target names in the scratch package (distinctive, so no schema type can shadow a module).
    static let cTarget = "ProvedSchemaC", facadeTarget = "ProvedSchema", catalogTarget = "ProvedSchemaCatalog"
    static let runner = "ProofRunner"

    /// `swift build` in the scratch package: every build there (runner, SwiftProtobuf peer, device
    /// runner) passes the same flags, or SwiftPM would recompile every module between them. No index
    /// store: nobody browses the scratch package, and indexing costs a tenth to a quarter of a debug
    /// build here.
    static func scratchBuild(_ scratch: String, _ what: [String]) -> [String] {
        ["swift", "build", "--disable-index-store", "--package-path", scratch] + what
    }

    init(options: ProveCommand.Options) throws {
        self.options = options
        root = try GenerationTools.wireproofRoot()
        protoDirectory = URL(fileURLWithPath: options.protoDirectory).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: protoDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ProveError(description: "schema folder \(protoDirectory) does not exist")
        }
        if let given = options.scratch {
            scratch = URL(fileURLWithPath: given).standardizedFileURL.path
        } else {
            let name = URL(fileURLWithPath: protoDirectory).lastPathComponent.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            let tag = String(DecodeMutationCheck.stableHash(protoDirectory) % 0xFFFF_FFFF, radix: 16)
            scratch = "\(root)/.scratch/prove/\(name.isEmpty ? "schema" : name)-\(tag)"
        }
    }

    func run() async throws -> Int32 {
        var summary = ProveSummary(protoDirectory: protoDirectory)
        let started = Date()
        defer { printError(String(format: "prove: done in %.1f s", Date().timeIntervalSince(started))) }
        func finish(_ status: Int32) throws -> Int32 {
            summary.passed = status == 0
            if let json = options.json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(summary).write(to: URL(fileURLWithPath: json))
            }
            return status
        }
        printError("prove: \(protoDirectory) (scratch package \(scratch))")

        // 1. Oracle vs protoc.
        printError("prove [1/4] oracle vs protoc")
        var clock = Date()
        var configuration = OracleCheckConfiguration(protoDirectory: protoDirectory, randomCount: options.random, seed: options.seed)
        configuration.includePaths = options.protoPaths + configuration.includePaths + [root + "/.deps/nanopb/generator/proto"]
        // protoc compiles the schema once: generation (step 2) reads the set the oracle compiled.
        // The set an earlier run left goes first, so no later step can read a schema older than this one.
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: scratch + "/schema.pb")
        configuration.descriptorSetOut = scratch + "/schema.pb"
        let oracle: OracleCheckReport
        do {
            oracle = try await OracleCheck.run(configuration) { [printError] done, total in
                if let line = Self.oracleProgressLine(done: done, of: total) { printError(line) }
            }
        } catch {
            summary.error = "oracle vs protoc: \(error)"
            printError("prove: \(summary.error!)")
            return try finish(2)
        }
        printOut(oracle.table)
        for line in Self.oracleFailureLines(oracle.failures.map(\.description)) { printOut(line) }
        let total = oracle.total
        summary.oracle = .init(agreed: total.agreed, disagreed: total.disagreed, excluded: total.excluded, random: total.random)
        summary.seconds["oracle"] = Date().timeIntervalSince(clock)

        // 2. Generate C, facades and the catalog into the scratch package.
        printError("prove [2/4] generate nanopb C, facades and the catalog")
        clock = Date()
        var peer = SwiftProtobufPeerStep.State.off("not generated"), deviceRunner = false
        do { (peer, deviceRunner) = try generate(); summary.swiftProtobuf = peer.summary } catch {
            summary.error = "\(error)"
            printError("prove: \(error)")
            return try finish(2)
        }
        summary.seconds["generate"] = Date().timeIntervalSince(clock)

        // 3. Build the runners: the whole scratch package in one `swift build` (each build plans
        // the package and Wireproof's again, seconds that a proof of a small schema is mostly made of).
        printError("prove [3/4] build the proof runner\(deviceRunner ? " and the device runner" : "") (swift build; the first run compiles the runtime too)")
        clock = Date()
        var build = try ChildProcess.runShowingOutput("/usr/bin/env", Self.scratchBuild(scratch, []))
        if build != 0 && peer == .on {
            // protoc-gen-swift's code is SwiftProtobuf's, not ours: when it is what does not
            // compile, the peer leaves this proof with the compiler's first error instead of stopping it.
            printError("prove: the build failed; compiling SwiftProtobuf's code for this schema alone")
            peer = try SwiftProtobufPeerStep.checkBuilds(scratch: scratch)
            if peer != .on {
                summary.swiftProtobuf = peer.summary
                printError("prove: SwiftProtobuf peer \(peer.summary)")
                try writeManifestAndRunners(peer: peer, deviceRunner: deviceRunner)
                build = try ChildProcess.runShowingOutput("/usr/bin/env", Self.scratchBuild(scratch, []))
            }
        }
        summary.seconds["build"] = Date().timeIntervalSince(clock)
        guard build == 0 else {
            summary.error = "the generated code did not build (exit \(build)); this is a Wireproof bug: please report it with the schema"
            printError("prove: \(summary.error!)")
            return try finish(2)
        }

        // 4. The proof itself.
        printError("prove [4/4] exemplars through the facades vs the oracle, seeded decode mutation")
        clock = Date()
        let reportPath = scratch + "/proof.json"
        try? FileManager.default.removeItem(atPath: reportPath)
        let runnerStatus = try ChildProcess.runShowingOutput(
            scratch + "/.build/debug/" + Self.runner,
            ["--descriptor-set", scratch + "/schema.pb", "--mutants", "\(options.mutants)", "--seed", "\(options.seed)", "--json", reportPath])
        summary.seconds["proof"] = Date().timeIntervalSince(clock)
        if let data = FileManager.default.contents(atPath: reportPath) {
            summary.proof = try? JSONDecoder().decode(SchemaProofReport.self, from: data)
        }
        guard runnerStatus == 0 || runnerStatus == 1, let proof = summary.proof else {
            summary.error = "the proof runner stopped abnormally (status \(runnerStatus))"
            printError("prove: \(summary.error!)")
            return try finish(2)
        }

        // 4b. The device party: the schema's own nanopb build, options applied (DeviceStep.swift).
        clock = Date()
        do {
            switch try runDevice(runnerBuilt: deviceRunner) {
            case .skipped(let why): summary.deviceSkipped = why; printError("prove: device party skipped: \(why)")
            case .ran(let report): summary.device = report
            }
        } catch {
            summary.error = "\(error)"
            printError("prove: \(error)")
            return try finish(2)
        }
        summary.seconds["device"] = Date().timeIntervalSince(clock)

        // 5. Optional bounded fuzzing (SchemaFuzzStep.swift): the device target too when the
        // device party ran, SwiftProtobuf as the differential's fourth party when the peer took part.
        var fuzzFailed = false
        if options.fuzzSeconds > 0 {
            clock = Date()
            let step = SchemaFuzzStep(root: root, scratch: scratch, seconds: options.fuzzSeconds,
                                      device: summary.device != nil ? scratch + "/device" : nil, swiftProtobuf: peer)
            printError(Self.fuzzStepLine(seconds: options.fuzzSeconds, againstDevice: step.device != nil))
            let status: Int32
            do { status = try step.run() } catch {
                printError("\(error)")
                status = 2
            }
            summary.fuzz = Self.fuzzOutcome(status)
            fuzzFailed = status != 0
            summary.seconds["fuzz"] = Date().timeIntervalSince(clock)
        }

        let verdict = Self.verdict(oracleAgreed: total.agreed, oracleDisagreed: total.disagreed, proof: proof,
                                   fuzz: summary.fuzz, fuzzFailed: fuzzFailed, device: summary.device)
        for line in verdict.lines { printOut(line) }
        return try finish(verdict.proved ? 0 : 1)
    }

    /// The oracle's disagreements as `prove` prints them after its table: the first 20 (the
    /// verdict line carries the full count).
    static func oracleFailureLines(_ failures: [String]) -> [String] {
        failures.prefix(20).map { "FAIL oracle vs protoc: \($0)" }
    }

    /// The oracle step's progress line after `done` of its `total` cases: about five in a run,
    /// and the last.
    static func oracleProgressLine(done: Int, of total: Int) -> String? {
        ProgressCadence.shows(done: done, of: total, times: 5) ? "prove: oracle \(done)/\(total)" : nil
    }

    /// The progress line of step 5: the device build is fuzzed after the decoders when the
    /// device party ran.
    static func fuzzStepLine(seconds: Int, againstDevice: Bool) -> String {
        "prove [5/5] libFuzzer on the schema's decoders for \(seconds) s" + (againstDevice ? ", then against the device build for as long" : "")
    }

    /// What the summary records of the fuzz step's exit status.
    static func fuzzOutcome(_ status: Int32) -> String {
        status == 0 ? "passed" : "failed (exit \(status))"
    }

    /// Whether the schema is proved, and the last lines `prove` prints (the peer's line when a peer
    /// took part, then the verdict). Proved means: the oracle agreed with protoc on everything,
    /// the runner's report passed, the fuzz step (when it ran) passed and the device party (when
    /// it ran) passed; nothing that did not run counts against it.
    static func verdict(oracleAgreed: Int, oracleDisagreed: Int, proof: SchemaProofReport, fuzz: String?, fuzzFailed: Bool,
                        device: DeviceProofReport?) -> (proved: Bool, lines: [String]) {
        let proved = oracleDisagreed == 0 && proof.passed && !fuzzFailed && device?.passed != false
        var lines: [String] = []
        if let report = proof.peer {
            let peer = report.total
            lines.append("prove: \(report.peer): exemplars \(peer.exemplarsSame) same as the facades, \(peer.exemplarsExplained) explained; mutants \(peer.mutantsSame) same, \(peer.mutantsExplained) explained; \(peer.failed) failed")
        }
        lines.append(String(
            format: "prove: %@: oracle %d agreed / %d disagreed; facades %d of %d exemplars passed (%d explained by known differences, %d excluded); %d mutants (%d failed)%@",
            proved ? "PROVED" : "FAILED", oracleAgreed, oracleDisagreed, proof.total.passed, proof.total.exemplars,
            proof.total.explained, proof.total.excluded, proof.total.mutantsAccepted + proof.total.mutantsRejected,
            proof.total.mutantsFailed, fuzz.map { "; fuzz \($0)" } ?? "") + (device.map { "; " + $0.verdict } ?? ""))
        return (proved, lines)
    }

    /// Generates C, facades and the catalog into the scratch package from one plan, in this
    /// process (and the SwiftProtobuf peer's code when it is on), and writes the package's
    /// manifest and runners: the device runner only when the device party is on and generation
    /// found the schema's nanopb options (without them the party is skipped).
    private func generate() throws -> (peer: SwiftProtobufPeerStep.State, deviceRunner: Bool) {
        try FileManager.default.createDirectory(atPath: scratch + "/Sources", withIntermediateDirectories: true)
        let (request, hint) = generationRequest()
        let generated: [String], deviceRunner: Bool
        do {
            let (lines, files, setsOptions) = try GenerateWithCatalogCommand.generate(
                request, catalogOut: "\(scratch)/Sources/\(Self.catalogTarget)", protoDirectoryHint: hint,
                tools: GenerationTools.inTree(root))
            for line in lines where !line.hasPrefix("wrote ") && !line.hasPrefix("removed ") { printError(line) }
            generated = files
            deviceRunner = options.device && setsOptions
        } catch {
            let hint = "\(error)".contains("device's layout") ? " (--no-device skips the device party and its limits)" : ""
            throw ProveError(description: "generation refused the schema: \(error)\(hint)")
        }
        // The peer judges what the facades judge: protoc-gen-swift's code for the same files.
        let peer = try SwiftProtobufPeerStep.prepare(root: root, scratch: scratch, enabled: options.swiftProtobufPeer,
                                                     judged: Set(generated))
        try writeManifestAndRunners(peer: peer, deviceRunner: deviceRunner)
        if let line = peer.proveLine { printError(line) }
        return (peer, deviceRunner)
    }

    /// What generation is asked for: C, facades (with the device's limits when the device party
    /// is on) from the descriptor set the oracle step compiled; and the schema folder relative to
    /// the Wireproof tree, nil outside it (the catalog records it, so no absolute path reaches it).
    func generationRequest() -> (GenerationRequest, protoDirectoryHint: String?) {
        var request = GenerationRequest(protoDirectory: protoDirectory, cOut: "\(scratch)/Sources/\(Self.cTarget)")
        request.swiftOut = "\(scratch)/Sources/\(Self.facadeTarget)"
        request.descriptorSet = "\(scratch)/schema.pb"  // compiled by the oracle step, with the same include paths
        request.optionsFile = options.optionsFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        request.protoPaths = options.protoPaths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        request.honourOptions = options.honourOptions
        // With the device party on, the facades carry the device's limits, and the party checks
        // their deviceLimitViolations() against its layout on every message it sends.
        request.limitsFromOptions = options.device
        request.deviceBuildOut = options.device ? "\(scratch)/device" : nil  // the device party's C, the limits' option sources
        let hint = RootPath.inside(root, protoDirectory)
        return (request, hint)
    }

    /// The scratch package's manifest and its two runners' sources, with or without the
    /// SwiftProtobuf peer; the manifest declares the device runner only with `deviceRunner`.
    func writeManifestAndRunners(peer: SwiftProtobufPeerStep.State, deviceRunner: Bool) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: "\(scratch)/Sources/\(Self.runner)", withIntermediateDirectories: true)
        try write(SwiftProtobufPeerStep.runnerSource(peer, role: "The proof runner", module: "FacadeProof", command: "ProofRunnerCommand",
                                                     catalogModule: Self.catalogTarget), to: "\(scratch)/Sources/\(Self.runner)/main.swift")
        try fm.createDirectory(atPath: "\(scratch)/Sources/\(Self.deviceRunner)", withIntermediateDirectories: true)
        try write(SwiftProtobufPeerStep.runnerSource(peer, role: "The device party's runner", module: "DeviceProof", command: "DeviceProofCommand",
                                                     catalogModule: Self.catalogTarget), to: "\(scratch)/Sources/\(Self.deviceRunner)/main.swift")
        try scratchManifest(peer: peer, deviceRunner: deviceRunner).write(into: scratch)
    }

    /// The scratch package's manifest: C, facades (with the device's limits when the device party
    /// is on), catalog and the proof runner, the device runner with `deviceRunner`, plus
    /// SwiftProtobuf's target when the peer is on.
    func scratchManifest(peer: SwiftProtobufPeerStep.State, deviceRunner: Bool) -> ScratchManifest {
        var manifest = ScratchManifest(
            packageName: "ProvedSchemaScratch", writtenBy: "`wireproof prove`",
            purpose: ["A scratch package holding the schema at \(protoDirectory), generated by wireproof generate."],
            wireproofRoot: root)
        manifest.targets = [
            .init(Self.cTarget, dependencies: [.product("CNanopb", package: "wireproof")]),
            .init(Self.facadeTarget, dependencies: [.target(Self.cTarget), .product("NanopbRuntime", package: "wireproof")]
                  + (options.device ? [.product("NanopbDeviceLimits", package: "wireproof")] : [])),
            .init(Self.catalogTarget, dependencies: [.target(Self.facadeTarget), .product("FacadeProof", package: "wireproof")]),
            .init(Self.runner, executable: true, dependencies: [.target(Self.catalogTarget), .product("FacadeProof", package: "wireproof")]),
        ]
        if deviceRunner {
            manifest.targets.append(.init(Self.deviceRunner, executable: true, dependencies: [
                .target(Self.catalogTarget), .product("FacadeProof", package: "wireproof"), .product("DeviceProof", package: "wireproof")]))
        }
        SwiftProtobufPeerStep.addPeer(peer, to: &manifest, runners: [Self.runner, Self.deviceRunner])
        return manifest
    }

    /// Writes `text` unless the file already holds it (so a rerun triggers no rebuild).
    private func write(_ text: String, to path: String) throws {
        let data = Data(text.utf8)
        if FileManager.default.contents(atPath: path) == data { return }
        try data.write(to: URL(fileURLWithPath: path))
    }
}

