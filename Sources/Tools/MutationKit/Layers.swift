// The layers of the code and the checks CI runs when one of their files changes; and the code that
// belongs to no layer, each with the reason. `LayerCoverage.uncovered` fails a run on any script
// under scripts/ (*.sh, *.py) or hand-written Swift file under Sources/ (not Sources/Generated)
// that is in neither, so new code cannot silently escape mutation testing.

import Foundation

/// A part of the code and the checks CI runs when it changes. Operators come from each file's
/// language (`Layer.ruleFile(for:)`), so a layer may hold Swift and its Python or shell helpers.
public struct Layer: Sendable, Equatable {
    public let name: String
    /// Files relative to the root, as globs (`*` does not cross `/`).
    public let patterns: [String]
    /// The `swift test --filter` of the suites closest to the layer.
    public let quick: String
    /// The bundled output must be regenerated before building (every file of the layer).
    public var regenerate = false
    /// The files (globs) of a layer without `regenerate` whose mutants regenerate all the same: code
    /// that only shapes generated output, which nothing would run unless it is generated again.
    public var regeneratingFiles: [String] = []
    /// Further commands run after every suite (e.g. make check-protocol).
    public var extra: [String] = []
    /// The code exists to break the build (ABI guard, configuration asserts): a broken build kills.
    public var buildIsCheck = false
    /// Commands run before the build (a failure kills), and again unmutated afterwards.
    public var prepare: [String] = []
    /// Seconds an extra check may take (0: the build's limit); for whole CI legs.
    public var extraLimit = 0
    /// The scratch copy gets its own .deps (the code writes there).
    public var privateDeps = false
    /// In runs without --layer; false: a mutant may cost a whole CI leg's time.
    public var sampled = true

    init(_ name: String, _ patterns: [String], _ quick: String) {
        self.name = name; self.patterns = patterns; self.quick = quick
    }

    /// The rule file (without `.rules`) for a file, by its extension; nil for other files.
    public static func ruleFile(for path: String) -> String? {
        for (suffix, rules) in [(".swift", "swift"), (".c", "c"), (".h", "c"), (".sh", "sh"), (".py", "py")]
        where path.hasSuffix(suffix) { return rules }
        return nil
    }

    /// Whether a mutant of `path` (relative to the root) regenerates the bundled output first.
    public func regenerates(_ path: String) -> Bool {
        regenerate || regeneratingFiles.contains { fnmatch($0, path, FNM_PATHNAME) == 0 }
    }

    private func with(_ change: (inout Layer) -> Void) -> Layer { var copy = self; change(&copy); return copy }

    /// Every layer, in sampling order. The first eight are the layers CI's sample of 8 takes one
    /// mutant from each; those marked unsampled are judged only when named with --layer.
    public static let all: [Layer] = [
        Layer("runtime", ["Sources/Shipped/NanopbRuntime/*.swift", "Sources/Shipped/NanopbDeviceLimits/*.swift"],
              "NanopbRuntimeTests|FacadeEdgeCaseTests|RuntimeLimitTests"),
        Layer("c-config", ["Sources/Shipped/CNanopb/include/wireproof_*.h", "Sources/Shipped/CNanopb/wireproof_abi_check.c"],
              "NanopbRuntimeTests|FacadeEdgeCaseTests|CNanopbTests|ProtoGenKitTests")
            .with { $0.extra = ["make check-protocol"]; $0.buildIsCheck = true },
        Layer("generator", ["Sources/Tools/ProtoGenKit/*.swift", "Sources/Tools/ProtoGenKit/Generation/*.swift"],
              "ProtoGenKitTests|NanopbRuntimeTests|FacadeEdgeCaseTests|ConformanceTests").with { $0.regenerate = true },
        // ConformanceTests (slow: every exemplar through the facades) runs in the all-suites step.
        Layer("oracle", ["Sources/Proof/ProtoOracle/*.swift"], "ProtoOracleTests"),
        Layer("schema", ["Sources/Proof/ProtoSchema/*.swift"], "ProtoSchemaTests|ProtoOracleTests"),
        Layer("proof", ["Sources/Proof/FacadeProof/*.swift", "Sources/Proof/OracleCheck/*.swift",
                        "Sources/Proof/CatalogGenerator/*.swift"], "FacadeProofTests|ConformanceTests|ProtoOracleTests")
            // The catalog emitter's output is the bundled catalog module the suites read.
            .with { $0.regeneratingFiles = ["Sources/Proof/CatalogGenerator/*.swift"] },
        Layer("transport", ["Sources/Wire/WireTransport/*.swift"], "WireTransportTests"),
        // The generation scripts.
        Layer("scripts", ["scripts/proto-options.py"],
              "ProtoGenKitTests|NanopbRuntimeTests|ConformanceTests|CNanopbTests")
            .with { $0.regenerate = true; $0.extra = ["make check-protocol"] },
        // `wireproof check-protocol` and `nanopb-symbols`: their tests make each check fail, and CI's leg runs them.
        Layer("protocol-check", ["Sources/Tools/ProveKit/ProtocolCheck/*.swift"], "ProtocolCheckTests|NanopbRenameListTests")
            .with { $0.extra = ["make check-protocol"] },
        // The command-line tools and their process plumbing: prove, generate, oracle-check. Then
        // check-foreign's leg on one of our option schemas: a whole `prove` (its orchestration runs
        // only after a `swift build` of the scratch package, which no suite does) with every step,
        // the SwiftProtobuf peer and the device party, and the check's own run loop and table; about
        // 12 s warm, 5 minutes in a fresh scratch copy. And CI's migration leg (the SwiftProtobuf
        // peer's package and programs; 14 s warm, about a minute fresh).
        Layer("tools", ["Sources/Tools/ProveKit/*.swift", "Sources/Tools/protogen/*.swift", "Sources/Tools/wireproof/*.swift",
                        "Sources/Tools/CommandLineSupport/*.swift", "Sources/Tools/ProcessSupport/*.swift",
                        "Sources/Proof/ProofSupport/*.swift"], "ProcessSupportTests|ProveKitTests|ProtoOracleTests")
            .with { $0.extra = ["make check-protocol", "make check-foreign FOREIGN_ARGS='--only options-repeated'", "make migration-sample"]
                $0.extraLimit = 900 },
        // nanopb's own generator run with the schema's options, and the device party built from it.
        Layer("device", ["Sources/Proof/DeviceProof/*.swift", "Sources/Tools/NanopbDeviceLayout/*.swift",
                         "scripts/device-build.py", "scripts/nanopb_options_file.py"], "DeviceProofTests|DeviceLimitEmitterTests"),
        // make interop runs the discovery suite in its namespace, next to the openssl and socat peers.
        Layer("discovery", ["Sources/Wire/WireDiscovery/*.swift", "scripts/discovery-test.sh", "scripts/interop.sh"],
              "WireDiscoveryTests|InteropTests").with { $0.extra = ["make interop"]; $0.extraLimit = 600; $0.sampled = false },
        Layer("netfuzz", ["Sources/Tools/NetFuzz/*/*.swift", "scripts/netfuzz.sh", "scripts/wire-pki.sh"], "WireTransportTests")
            .with { $0.extra = ["make netfuzz"]; $0.extraLimit = 900; $0.sampled = false },
        Layer("exerciser", ["Sources/Proof/RuntimeExerciser/*.swift", "scripts/valgrind.sh"], "NanopbRuntimeTests")
            .with { $0.extra = ["make valgrind"]; $0.extraLimit = 900; $0.sampled = false },
        // setup.sh installs the patched nanopb runtime the build compiles: it runs before the build, a
        // build it breaks is a kill, and it gets a private .deps (it would otherwise write the shared one).
        Layer("setup", ["scripts/setup.sh"], "CNanopbTests|NanopbRuntimeTests|ProtoScriptTests").with {
            $0.prepare = ["bash scripts/setup.sh >/dev/null"]; $0.buildIsCheck = true; $0.privateDeps = true; $0.sampled = false
        },
        Layer("conformance", ["Sources/Tools/ProveKit/Conformance/*.swift"], "ConformanceCommandTests|ConformanceTests")
            .with { $0.extra = ["make conformance"]; $0.extraLimit = 900; $0.sampled = false },
        // The SwiftProtobuf peer package's driver. These files are in the tools layer too (sampled there
        // with ProveKitTests); named with --layer, a mutant of them also faces make migration-sample.
        Layer("migration", ["Sources/Tools/ProveKit/SwiftProtobufPeer.swift", "Sources/Tools/ProveKit/SwiftProtobufPeer+*.swift",
                            "Sources/Tools/ProveKit/SwiftProtobufPlan.swift", "Sources/Tools/ProveKit/GeneratedFolderSync.swift"],
              "ProveKitTests|MigrationSampleTests").with { $0.extra = ["make migration-sample"]; $0.extraLimit = 900; $0.sampled = false },
        // `wireproof check-foreign`'s files are in the tools layer too (sampled there with ProveKitTests);
        // named with --layer, a mutant of them also faces make check-foreign.
        Layer("foreign", ["Sources/Tools/ProveKit/Foreign*.swift"], "ProveKitTests|ProtoGenKitTests")
            .with { $0.extra = ["make check-foreign"]; $0.extraLimit = 3600; $0.sampled = false },
        Layer("sanitizers", ["scripts/sanitize.sh"], "NanopbRuntimeTests")
            .with { $0.extra = ["make asan", "make tsan"]; $0.extraLimit = 3600; $0.sampled = false },
        // lib.sh (the scripts' prelude) is judged here: ClusterFuzzLite's build.sh, which fuzz-smoke runs,
        // is what uses all of it (root, SWIFT, wireproof_tool).
        Layer("fuzz", ["Sources/Tools/ProveKit/Fuzz/*.swift", "scripts/fuzz-env.sh", "scripts/fuzz-setup.sh", "scripts/cflite-check.sh",
                       "scripts/lib.sh"],
              "NanopbRuntimeTests|FuzzWorkflowTests|FuzzMeasurementTests")
            .with { $0.extra = ["make fuzz-smoke"]; $0.extraLimit = 1200; $0.sampled = false },
        Layer("wide-schema", ["scripts/wide-schema.sh"], "RuntimeLimitTests")
            .with { $0.extra = ["make check-wide-schema"]; $0.extraLimit = 1200; $0.sampled = false },
        // make bench: its steps' command lines and knobs (Run/), and its reporter: attribution,
        // callgrind listings, the summary's goals, the doc section.
        Layer("bench-report", ["Sources/Tools/BenchReport/*.swift", "Sources/Tools/BenchReport/Run/*.swift"], "BenchReportTests"),
        // This tool's engine: rules, masking, sampling, layers, plants (its runner is unlayered, below).
        Layer("mutation", MutationEngineFiles.paths, "MutationKitTests"),
    ]

    /// Hand-written code in no layer, each with the reason (globs, as `patterns`).
    public static let unlayered: [(pattern: String, reason: String)] = [
        // Measurements: they print figures for the docs; no test or CI leg runs them or reads what
        // they print, so every mutant of theirs would survive.
        ("scripts/udp-batch-bench.sh", "a measurement (make udp-batch-bench); nothing runs it in CI"),
        ("scripts/load-test.sh", "a load run (make load-test) by hand; no CI leg runs it"),
        ("scripts/peak-memory.sh", "a measurement (make peak-memory); no CI leg runs it"),
        ("Sources/Tools/wirebench/*.swift", "the benchmark binary of udp-batch-bench.sh, load-test.sh and make bench; no test runs it"),
        // Optional paths no CI leg takes.
        ("scripts/fuzz-plot.py", "draws a coverage plot after a fuzz campaign (make fuzz), not in the smoke leg; nothing reads the plot"),
        // Unsafe to mutate in a scratch copy.
        ("scripts/swiftpm-mirrors.py", "writes the machine-wide ~/.swiftpm mirror file (a mutant would redirect every SwiftPM "
            + "build on the machine), and runs only where ../shared/vendor exists, which the scratch copy has not"),
        // This tool's runner: judging its mutants means running it inside itself.
        ("Sources/Tools/MutationKit/*.swift", "this tool's runner (scratch copy, steps, judging, report, command): judging its "
            + "mutants means running make mutation-ci inside itself (~10 min a mutant); its engine is the mutation layer"),
        ("Sources/Tools/wiremutate/*.swift", "the tool's one-line entry point"),
    ]
}

/// The files of the engine, judged by MutationKitTests (the rest of MutationKit is unlayered).
enum MutationEngineFiles {
    static let paths = ["MutationRule", "MutantGenerator", "ProseMask", "Mutant", "MutantSource", "Layers", "LayerCoverage", "Plants",
                        "PlantLegs", "PlantLegsRun", "LineCoverage"]
        .map { "Sources/Tools/MutationKit/\($0).swift" }
}
