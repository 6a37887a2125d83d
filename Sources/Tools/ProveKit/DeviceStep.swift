// The device party of `wireproof prove` (docs/device.md): when the schema sets nanopb options,
// nanopb's own generator writes the schema's C with them (scripts/device-build.py), the C driver
// (Sources/Proof/DeviceDriver) is compiled against nanopb's own runtime, and the scratch package's
// DeviceRunner sends it every facade exemplar and every limit exemplar.

import DeviceProof
import Foundation
import ProofSupport

/// What the device step did.
enum DeviceStepOutcome {
    /// Not run: `--no-device`, or the schema sets no nanopb option.
    case skipped(String)
    /// Ran; the report says what the device accepted and refused.
    case ran(DeviceProofReport)
}

extension Prover {
    /// The scratch package's device runner target.
    static let deviceRunner = "DeviceRunner"

    /// main.swift of the device runner (written with the proof runner by `generate`).
    static let deviceRunnerMain = """
        // Written by `wireproof prove`; do not edit. The device party's runner of this schema.
        import DeviceProof
        import \(catalogTarget)
        #if canImport(Glibc)
        import Glibc
        #endif

        exit(DeviceProofCommand.main(catalog: facadeCatalog, arguments: Array(CommandLine.arguments.dropFirst())))

        """

    /// Builds the device's C and runs the device party. Throws `ProveError` when it cannot be
    /// carried out (nanopb refuses the schema's options, the device C does not compile).
    func runDevice() throws -> DeviceStepOutcome {
        guard options.device else { return .skipped("--no-device") }
        let work = scratch + "/device"
        try? FileManager.default.removeItem(atPath: work)
        var arguments = [root + "/scripts/device-build.py", root + "/.deps/nanopb", scratch + "/schema.pb", protoDirectory, work]
        if let file = options.optionsFile { arguments += ["--options", URL(fileURLWithPath: file).standardizedFileURL.path] }
        for path in options.protoPaths { arguments += ["--search", URL(fileURLWithPath: path).standardizedFileURL.path] }
        let build = try ChildProcess.run("/usr/bin/python3", arguments)
        guard build.status == 0 else {
            throw ProveError(description: "the device build: \(build.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)) (--no-device skips the device party)")
        }
        let layout = try DeviceLayout(contentsOf: work + "/layout.json")
        guard layout.options else { return .skipped("the schema sets no nanopb option") }

        let driver = work + "/device_driver"
        let nanopb = root + "/.deps/nanopb"
        let generated = (FileManager.default.enumerator(atPath: work + "/gen")?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".c") }.sorted().map { work + "/gen/" + $0 }
        // nanopb's default configuration; PB_FIELD_32BIT only when the generated C asks for it.
        func compile(_ extra: [String]) throws -> ChildProcess.Result {
            try ChildProcess.run("/usr/bin/env", ["cc", "-std=c11", "-O1", "-g", "-DPB_ENABLE_MALLOC=1"] + extra + [
                "-I", nanopb, "-I", work + "/gen", "-o", driver, root + "/Sources/Proof/DeviceDriver/device_driver.c",
            ] + generated + ["pb_common.c", "pb_decode.c", "pb_encode.c"].map { nanopb + "/" + $0 })
        }
        var compiled = try compile([])
        if compiled.status != 0 && compiled.stderrText.contains("PB_FIELD_32BIT") {
            ProveCommand.printError("prove: the device's C needs PB_FIELD_32BIT; building with it")
            compiled = try compile(["-DPB_FIELD_32BIT=1"])
        }
        guard compiled.status == 0 else {
            let first = compiled.stderrText.split(separator: "\n").filter { $0.contains("error") }.prefix(3).joined(separator: "; ")
            throw ProveError(description: "the device build does not compile with nanopb's generator output: \(first) (--no-device skips the device party)")
        }

        let status = try ChildProcess.runShowingOutput(
            "/usr/bin/env", ["swift", "build", "--package-path", scratch, "--product", Self.deviceRunner])
        guard status == 0 else { throw ProveError(description: "the device runner did not build (exit \(status)); this is a Wireproof bug") }
        let reportPath = work + "/device.json"
        let runner = try ChildProcess.runShowingOutput(scratch + "/.build/debug/" + Self.deviceRunner, [
            "--descriptor-set", scratch + "/schema.pb", "--layout", work + "/layout.json", "--driver", driver,
            "--work", work, "--json", reportPath,
        ])
        guard runner == 0 || runner == 1, let data = FileManager.default.contents(atPath: reportPath),
              let report = try? JSONDecoder().decode(DeviceProofReport.self, from: data) else {
            throw ProveError(description: "the device runner stopped abnormally (status \(runner))")
        }
        return .ran(report)
    }
}
