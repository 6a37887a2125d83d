// Step 2 of `make bench`: the throwaway SwiftPM package (.scratch/bench/pkg, git-ignored) that
// depends on this one by path, so the package's own build is untouched. Its executables (sources
// in Benchmarks/ or written by `wireproof size-probe`):
//   SizeBaseline      trivial work, no protobuf
//   SizePacket        builds, encodes, decodes a chat DataPacket through BundledProto (all types)
//   SizePacketPruned  the same source against facades pruned to the types it spells
//   SizeOne           uses every accessor of one message (BENCH_ONE_TYPE), all types linked
//   SizeOnePruned     the same source against facades pruned to that one message
//   SizeAll           uses every accessor of every message
//   CodecBench        facade vs oracle encode/decode timings; writes the packets' bytes (dump)
//   CodecC            the same decode/encode in plain C over CNanopb + BundledProtoC

import Foundation

/// What step 2 learnt: message counts the size report divides by.
struct ScratchPackage {
    static let folder = ".scratch/bench/pkg"
    var allCount = 0
    var oneCount = 0

    /// The manifest's targets: `wireproof scratch-manifest` arguments after `--dir`/`--name`.
    static let manifestTargets: [String] = [
        "--target", "PrunedOneC=wireproof:CNanopb", "--target", "PrunedOne=PrunedOneC,wireproof:NanopbRuntime",
        "--target", "PrunedPacketC=wireproof:CNanopb", "--target", "PrunedPacket=PrunedPacketC,wireproof:NanopbRuntime",
        "--executable", "SizeBaseline", "--executable", "SizePacket=wireproof:BundledProto",
        "--executable", "SizePacketPruned=PrunedPacket", "--executable", "SizeOne=wireproof:BundledProto",
        "--executable", "SizeOnePruned=PrunedOne", "--executable", "SizeAll=wireproof:BundledProto",
        "--executable", "CodecBench=wireproof:BundledProto,wireproof:ProtoOracle,wireproof:ProtoSchema",
        "--executable", "CodecC=wireproof:BundledProtoC,wireproof:CNanopb",
    ]

    /// `source` with its `import BundledProto` line importing `module` instead (the pruned probes).
    static func retargeted(_ source: String, to module: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0 == "import BundledProto" ? "import \(module)" : String($0) }.joined(separator: "\n")
    }

    /// Copies `source` to `destination` only when they differ, so a rerun rebuilds only what changed.
    static func install(_ source: String, _ destination: String) throws {
        let manager = FileManager.default
        if manager.contentsEqual(atPath: source, andPath: destination) { return }
        try manager.createDirectory(atPath: (destination as NSString).deletingLastPathComponent,
                                    withIntermediateDirectories: true)
        if manager.fileExists(atPath: destination) { try manager.removeItem(atPath: destination) }
        try manager.copyItem(atPath: source, toPath: destination)
    }

    /// Writes the package: probe sources, generation plans, pruned facades, the descriptor set of
    /// Protos/ (`out/rtm.pb`) and the manifest. `tools` runs protogen and wireproof.
    static func write(_ settings: BenchSettings, root: String, tools: BenchTools) throws -> ScratchPackage {
        let out = settings.out, pkg = root + "/" + folder, src = out + "/src"
        for name in ["SizeBaseline", "SizePacket", "CodecBench"] {
            try install("Benchmarks/\(name)/main.swift", "\(pkg)/Sources/\(name)/main.swift")
        }
        try install("Benchmarks/CodecC/main.c", "\(pkg)/Sources/CodecC/main.c")
        // What the facades hold comes from the generation plan (protogen generate --plan-out), never from their text.
        try BenchShell.run(try tools.protogen + ["generate", "--c-only", "--proto-dir", "Protos", "--c-out", out + "/PlanAllC",
                                             "--plan-out", out + "/plan-all.json"],
                           log: out + "/proto-all.log", failure: "the generation plan of the bundled schema failed")
        let probe = try tools.wireproof + ["size-probe", "--plan", out + "/plan-all.json", "--module", "BundledProto"]
        var result = ScratchPackage()
        let allText = try BenchShell.output(probe + ["--out", src + "/SizeAll.swift", "--all"], log: out + "/size-probe.log",
                                            failure: "wireproof size-probe --all failed")
        guard let all = Int(allText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchRunError.stepFailed(what: "wireproof size-probe --all printed no message count", logTail: allText)
        }
        result.allCount = all
        _ = try BenchShell.output(probe + ["--out", src + "/SizeOne.swift", "--type", settings.oneType],
                                  log: out + "/size-probe.log", failure: "wireproof size-probe --type \(settings.oneType) failed")
        try BenchShell.write(retargeted(try BenchShell.read(src + "/SizeOne.swift"), to: "PrunedOne"), to: src + "/SizeOnePruned.swift")
        try BenchShell.write(retargeted(try BenchShell.read("Benchmarks/SizePacket/main.swift"), to: "PrunedPacket"),
                             to: src + "/SizePacketPruned.swift")
        for name in ["SizeAll", "SizeOne", "SizeOnePruned", "SizePacketPruned"] {
            try install("\(src)/\(name).swift", "\(pkg)/Sources/\(name)/main.swift")
        }
        // Pruned facades (and their C) for the two pruned probes, by the same `make proto` pipeline.
        for pruned in ["One", "Packet"] {
            try BenchShell.run(try tools.protogen + ["generate", "--proto-dir", "Protos", "--c-out", "\(pkg)/Sources/Pruned\(pruned)C",
                                                 "--swift-out", "\(pkg)/Sources/Pruned\(pruned)",
                                                 "--prune-sources", "\(pkg)/Sources/Size\(pruned)Pruned",
                                                 "--plan-out", "\(out)/plan-\(pruned).json"],
                               log: "\(out)/proto-\(pruned).log", failure: "pruned facades for Size\(pruned)Pruned failed")
        }
        result.oneCount = try GenerationPlanCount.messages(inPlanAt: out + "/plan-One.json")
        let packetCount = try GenerationPlanCount.messages(inPlanAt: out + "/plan-Packet.json")
        print("  \(result.allCount) messages in the bundled schema; SizeOne uses \(settings.oneType); facades pruned to it: "
              + "\(result.oneCount) message(s), pruned to SizePacket: \(packetCount)")
        try BenchShell.run(["protoc", "-IProtos", "-I/usr/include", "--include_imports", "--descriptor_set_out=\(out)/rtm.pb"]
                           + (try protoFiles(under: "Protos")),
                           log: out + "/protoc-descriptor.log", failure: "protoc could not read Protos/")
        try BenchShell.run(try tools.wireproof + ["scratch-manifest", "--dir", pkg, "--name", "WireproofBench",
                                              "--written-by", "wirebench run (make bench)", "--wireproof-root", root]
                           + manifestTargets,
                           log: out + "/manifest.log", failure: "cannot write the bench package's manifest")
        return result
    }

    /// The .proto files under `folder`, relative to it, in byte order.
    static func protoFiles(under folder: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while files.count < 100_000, let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".proto") { files.append(relative) }
        }
        return files.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
