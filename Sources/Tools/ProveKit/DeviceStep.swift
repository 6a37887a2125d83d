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

    /// Builds the device's C and runs the device party. The runner was built in step 3 when
    /// `runnerBuilt`; otherwise (generation saw no nanopb option, which should then be skipped here)
    /// it is declared and built now, never an older schema's binary run. Throws `ProveError` when
    /// the party cannot be carried out (nanopb refuses the schema's options, the device C does not compile).
    func runDevice(peer: SwiftProtobufPeerStep.State, runnerBuilt: Bool) throws -> DeviceStepOutcome {
        guard options.device else { return .skipped("--no-device") }
        let work = scratch + "/device"
        try? FileManager.default.removeItem(atPath: work)
        let built: DeviceBuild.Output
        do {
            built = try DeviceBuild.make(
                root: root, descriptorSet: scratch + "/schema.pb", protoDirectory: protoDirectory, work: work,
                optionsFile: options.optionsFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                searchPaths: options.protoPaths.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        } catch {
            throw ProveError(description: "the device build: \(error) (--no-device skips the device party)")
        }
        guard let driver = built.driver else { return .skipped("the schema sets no nanopb option") }
        if built.field32 { printError("prove: the device's C needs PB_FIELD_32BIT; built with it") }

        if !runnerBuilt {
            try writeManifestAndRunners(peer: peer, deviceRunner: true)
            let status = try ChildProcess.runShowingOutput("/usr/bin/env", Prover.scratchBuild(scratch, ["--product", Self.deviceRunner]))
            guard status == 0 else { throw ProveError(description: "the device runner did not build (exit \(status)); this is a Wireproof bug") }
        }
        let reportPath = work + "/device.json"
        let runner = try ChildProcess.runShowingOutput(scratch + "/.build/debug/" + Self.deviceRunner, [
            "--descriptor-set", scratch + "/schema.pb", "--layout", work + "/layout.json", "--driver", driver,
            "--work", work, "--json", reportPath, "--mutants", "\(options.mutants)", "--seed", "\(options.seed)",
        ])
        guard runner == 0 || runner == 1, let data = FileManager.default.contents(atPath: reportPath),
              let report = try? JSONDecoder().decode(DeviceProofReport.self, from: data) else {
            throw ProveError(description: "the device runner stopped abnormally (status \(runner))")
        }
        return .ran(report)
    }
}
