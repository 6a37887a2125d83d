// `wireproof fuzz build`: every fuzz product of Fuzz/ (release, -sanitize=fuzzer,address, the C runtime
// instrumented too), the SwiftProtobuf party generated first, the schema's descriptor set beside
// the binaries; and where the built binaries are.

import Foundation
import ProcessSupport

/// Builds and finds the fuzz binaries of one tree, with fuzz-env.sh's flags.
struct FuzzBuild {
    let workspace: FuzzWorkspace
    let environment: FuzzEnvironment
    /// The swift driver (SWIFT, default `swift` on PATH).
    var swift = ProcessInfo.processInfo.environment["SWIFT"] ?? "swift"

    /// The folder SwiftPM builds the fuzz binaries into, for these flags.
    func binDirectory() throws -> String {
        let result = try ChildProcess.run("/usr/bin/env", environment.envCommand(swift, ["build"] + environment.buildFlags + ["--show-bin-path"]),
                                          in: workspace.package)
        let path = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !path.isEmpty else { throw FuzzError("cannot find the fuzz build folder (\(result.stderrText.suffix(300)))") }
        return path
    }

    /// The built executable of `product`; throws when it, or the descriptor set beside it, is missing.
    func binary(_ product: String) throws -> String {
        let bin = try binDirectory()
        guard FileManager.default.isExecutableFile(atPath: "\(bin)/\(product)"), FileManager.default.fileExists(atPath: bin + "/wireproof.pb") else {
            throw FuzzError("\(bin)/\(product) is not built; run 'make fuzz-build'")
        }
        return "\(bin)/\(product)"
    }

    func binary(_ target: FuzzTarget) throws -> String { try binary(target.rawValue) }

    /// Runs a setup script of the tree; `quiet` sends its standard output to /dev/null.
    private func setupScript(_ name: String, quiet: Bool) throws {
        let script = "\(workspace.root)/scripts/\(name)"
        let status = try ChildProcess.runShowingOutput("/bin/bash", quiet ? ["-c", #"bash "$0" > /dev/null"#, script] : [script],
                                                       in: workspace.root)
        guard status == 0 else { throw FuzzError("scripts/\(name) failed (exit \(status))") }
    }

    /// The whole build: setup, the SwiftProtobuf party, each product (by product: a whole-package
    /// build would also compile the root package's unrelated targets), the descriptor set.
    func build() throws {
        try setupScript("setup.sh", quiet: true)
        try setupScript("fuzz-setup.sh", quiet: false)
        try FuzzSchemaFiles(workspace: workspace).generateSwiftProtobufParty()
        let targets = FuzzTarget.allCases.map(\.rawValue)
        printOut("fuzz: building \(targets.joined(separator: " ")) (release, -sanitize=fuzzer,address; the C runtime is instrumented too)")
        let start = Date()
        for product in FuzzTarget.builtProducts {
            let status = try ChildProcess.runShowingOutput(swift, ["build"] + environment.buildFlags + ["--product", product],
                                                           in: workspace.package, environment: environment.exported)
            guard status == 0 else { throw FuzzError("\(product) did not build (swift build exit \(status))") }
        }
        let bin = try binDirectory()
        try FuzzSchemaFiles(workspace: workspace).writeDescriptorSet(to: bin + "/wireproof.pb")
        printOut("fuzz: built in \(Int(Date().timeIntervalSince(start))) s: \(bin)/{\(targets.joined(separator: ","))}")
    }
}
