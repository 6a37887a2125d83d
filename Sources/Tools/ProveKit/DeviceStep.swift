// The device party of `wireproof prove` (docs/device.md): when the schema sets nanopb options,
// generation keeps nanopb's own build of the schema with them (scripts/device-build.py, the same
// option sources as the facades' limits), the C driver (Sources/Proof/DeviceDriver) is compiled
// against it and nanopb's own runtime, and the scratch package's DeviceRunner sends it every
// facade exemplar and every limit exemplar.

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

    /// Compiles the device's C that generation left in `scratch/device` and runs the device party.
    /// `runnerBuilt` is generation's answer (the runner is declared and built in step 3 exactly
    /// when generation found nanopb options); without it the party is skipped. Throws `ProveError`
    /// when the party cannot be carried out (the device C does not compile, the runner stops).
    func runDevice(runnerBuilt: Bool) throws -> DeviceStepOutcome {
        guard options.device else { return .skipped("--no-device") }
        guard runnerBuilt else { return .skipped("the schema sets no nanopb option") }
        let work = scratch + "/device"
        let built: DeviceBuild.Output
        do { built = try DeviceBuild.compile(root: root, work: work) } catch {
            throw ProveError(description: "the device build: \(error) (--no-device skips the device party)")
        }
        guard let driver = built.driver else {
            throw ProveError(description: "the device build in \(work) sets no nanopb option, but generation found some; this is a Wireproof bug")
        }
        if built.field32 { printError("prove: the device's C needs PB_FIELD_32BIT; built with it") }

        let reportPath = work + "/device.json"
        let runner = try ChildProcess.runShowingOutput(scratch + "/.build/debug/" + Self.deviceRunner, [
            "--descriptor-set", scratch + "/schema.pb", "--layout", work + "/layout.json", "--driver", driver,
            "--work", work, "--json", reportPath, "--mutants", "\(options.mutants)", "--seed", "\(options.seed)",
        ])
        return .ran(try Self.runnerReport(status: runner, at: reportPath))
    }

    /// The device runner's report: its JSON when the runner exited 0 (proved) or 1 (a check
    /// failed, which the report says). Any other status, or no report it can read, means the
    /// runner stopped abnormally.
    static func runnerReport(status runner: Int32, at reportPath: String) throws -> DeviceProofReport {
        guard runner == 0 || runner == 1, let data = FileManager.default.contents(atPath: reportPath),
              let report = try? JSONDecoder().decode(DeviceProofReport.self, from: data) else {
            throw ProveError(description: "the device runner stopped abnormally (status \(runner))")
        }
        return report
    }
}
