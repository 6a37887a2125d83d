// `wireproof fuzz triage TARGET FILE`: a folder for one crashing input, named by its SHA-1, holding
// the reproducer, a minimized copy, protoc --decode_raw of both, and the symbolized stack.

import Foundation
import ProcessSupport

/// Triage of crashing inputs. Ownership: each input's folder under .scratch/fuzz/<target>/triage/;
/// rerunning on the same bytes rewrites the same folder.
struct FuzzTriage {
    let build: FuzzBuild
    var workspace: FuzzWorkspace { build.workspace }

    /// The causes a stack names first, in the order they are looked for on each line.
    static let causes = ["broken property", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "deadly signal"]

    /// The SHA-1 of a file's bytes, 40 lowercase hex digits (sha1sum's, as libFuzzer names inputs).
    static func sha1(of file: String) throws -> String {
        guard let bytes = FileManager.default.contents(atPath: file) else { throw FuzzError("cannot read \(file)") }
        return SHA1.hex(Array(bytes))
    }

    /// protoc --decode_raw of an input's message bytes (everything after the type selector byte),
    /// its standard output then its standard error; empty when protoc cannot be run.
    static func decodeRaw(_ input: [UInt8]) -> String {
        let protoc = ChildProcess.protoc()
        guard let decoded = try? ChildProcess.run(protoc, ["--decode_raw"], input: Array(input.dropFirst())) else { return "" }
        return String(decoding: decoded.stdout + decoded.stderr, as: UTF8.self)
    }

    /// The text of an input's `.decode_raw.txt`: the type selector byte (0 for an empty input),
    /// then the message bytes as protoc reads them.
    static func decodeRawReport(_ input: [UInt8]) -> String {
        "type selector byte: \(input.first ?? 0)\n" + decodeRaw(input)
    }

    /// Fills the triage folder of `file` and prints where it is and the first line saying why it crashed.
    func triage(_ target: FuzzTarget, _ file: String) throws {
        let executable = try build.binary(target)
        let folder = workspace.triageFolder(target, sha1: try Self.sha1(of: file))
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let reproducer = folder + "/reproducer", minimized = folder + "/minimized"
        _ = try? fm.removeItem(atPath: reproducer)
        try fm.copyItem(atPath: file, toPath: reproducer)
        // The symbolized stack (swift-demangle'd) and the broken property, from one replay.
        let raw = folder + "/stack.raw.txt"
        let symbolizer = ChildProcess.executableOnPath("llvm-symbolizer")
        let symbolizing = build.environment.exported.merging(LibFuzzerArguments.symbolizingEnvironment(symbolizer: symbolizer)) { $1 }
        _ = try ChildProcess.runIntoLog(executable, [reproducer], log: raw, environment: symbolizing)
        let rawStack = try ChildProcess.readFile(raw)
        let demangled = try? ChildProcess.run("/usr/bin/env", [build.swift, "demangle"], input: rawStack)
        try Data(demangled?.status == 0 ? demangled!.stdout : rawStack).write(to: URL(fileURLWithPath: folder + "/stack.txt"))
        try fm.removeItem(atPath: raw)
        _ = try? fm.removeItem(atPath: minimized)
        _ = try ChildProcess.runIntoLog(executable, LibFuzzerArguments.minimizeCrash(reproducer, into: minimized), log: folder + "/minimize.log",
                                        environment: build.environment.exported)
        if !fm.fileExists(atPath: minimized) { try fm.copyItem(atPath: reproducer, toPath: minimized) }
        for input in [reproducer, minimized] {
            try Data(Self.decodeRawReport(try ChildProcess.readFile(input)).utf8).write(to: URL(fileURLWithPath: input + ".decode_raw.txt"))
        }
        printOut("fuzz: triage of \(URL(fileURLWithPath: file).lastPathComponent) in \(folder):")
        let stack = String(decoding: try ChildProcess.readFile(folder + "/stack.txt"), as: UTF8.self)
        if let cause = stack.split(separator: "\n").first(where: { line in Self.causes.contains { line.contains($0) } }) { printOut("  " + cause) }
        let size = (try? ChildProcess.readFile(minimized).count) ?? 0
        printOut("  reproducer, minimized (\(size) bytes), *.decode_raw.txt, stack.txt")
        printOut("  to keep it: cp \(minimized) Corpus/regressions/<what-it-broke> (make test replays it)")
    }
}
