// The programs generation runs: protoc, and nanopb's own Python code (its generator, the option
// loader that reads the schema's options with nanopb's parser, and, for facades that carry the
// device's limits, its generator run with those options). Nothing else is spawned.

import Foundation
import ProcessSupport

/// Where the third-party tools are. `locate` finds them in a Wireproof tree after `make setup`.
public struct GenerationTools: Sendable {
    /// protoc (Debian's protobuf-compiler): the first on PATH, as the oracle's cross-check finds it,
    /// so one PATH entry stands in for every protoc a proof runs (make check-foreign counts them).
    public var protoc = ChildProcess.protoc()
    /// Debian's interpreter, which has python3-protobuf (the first python3 on PATH may not).
    public var python = "/usr/bin/python3"
    /// nanopb's source tree (`.deps/nanopb`, from the Debian source package).
    public var nanopb: String
    /// The option reader (`scripts/proto-options.py`), which runs nanopb's own option parser.
    public var optionLoader: String
    /// nanopb's generator run with the schema's own options (`scripts/device-build.py`): the
    /// device build's layout, for facades that carry its limits.
    public var deviceBuilder: String

    public init(nanopb: String, optionLoader: String, deviceBuilder: String) {
        self.nanopb = nanopb
        self.optionLoader = optionLoader
        self.deviceBuilder = deviceBuilder
    }

    /// The tools of the Wireproof tree at `root`; fails naming what `make setup` has not installed.
    public static func inTree(_ root: String) throws(GeneratorError) -> GenerationTools {
        let tools = GenerationTools(nanopb: root + "/.deps/nanopb", optionLoader: root + "/scripts/proto-options.py",
                                    deviceBuilder: root + "/scripts/device-build.py")
        for (path, what) in [(tools.nanopb + "/generator/nanopb_generator.py", "nanopb's generator"),
                             (tools.optionLoader, "the option loader"), (tools.deviceBuilder, "the device builder"), (tools.protoc, "protoc"), (tools.python, "Debian's python3")]
        where !FileManager.default.fileExists(atPath: path) {
            throw .io(path: path, reason: "\(what) is missing; run 'make setup'")
        }
        return tools
    }

    /// The Wireproof tree this process runs from, the one answer every tool uses: `WIREPROOF_ROOT`
    /// (which must be such a tree), else the first folder above the running executable
    /// (…/.build/<config>/<tool>) that is one, else the tree this file was compiled from. A tree is
    /// a folder with Package.swift and the runtime's configuration header. Fails naming what to set.
    public static func wireproofRoot(
        environment: [String: String] = ProcessInfo.processInfo.environment, executable: String = "/proc/self/exe",
        compiledFrom sourceFile: String = #filePath
    ) throws(GeneratorError) -> String {
        func isRoot(_ path: String) -> Bool {
            FileManager.default.fileExists(atPath: path + "/Package.swift")
                && FileManager.default.fileExists(atPath: path + "/Sources/Shipped/CNanopb/include/wireproof_pb_config.h")
        }
        if let given = environment["WIREPROOF_ROOT"] {
            guard isRoot(given) else { throw .io(path: given, reason: "WIREPROOF_ROOT is not a Wireproof tree") }
            return given
        }
        var candidate = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            if isRoot(candidate.path) { return candidate.path }
            candidate.deleteLastPathComponent()
        }
        // Sources/Tools/ProtoGenKit/Generation/GenerationTools.swift: five levels below the root.
        var compiled = URL(fileURLWithPath: sourceFile)
        for _ in 0..<5 { compiled.deleteLastPathComponent() }
        if isRoot(compiled.path) { return compiled.path }
        throw .io(path: candidate.path, reason: "cannot find the Wireproof tree above the running program; set WIREPROOF_ROOT")
    }

    /// Runs a tool; fails with its output when it exits non-zero.
    func run(_ executable: String, _ arguments: [String], in directory: String? = nil, what: String) throws(GeneratorError) -> [UInt8] {
        let result: ChildProcess.Result
        do { result = try ChildProcess.run(executable, arguments, in: directory) } catch {
            throw .io(path: executable, reason: "cannot run \(what): \(error)")
        }
        guard result.status == 0 else {
            throw .tool(what: what, status: result.status, output: result.stderrText + String(decoding: result.stdout, as: UTF8.self))
        }
        if !result.stderr.isEmpty { FileHandle.standardError.write(Data(result.stderr)) }
        return result.stdout
    }
}
