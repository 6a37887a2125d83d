// Building the device side of a schema: nanopb's own generator with the schema's own options
// (scripts/device-build.py), then the C driver (Sources/Proof/DeviceDriver/device_driver.c)
// compiled with that output and nanopb's own runtime from the Wireproof tree's .deps/nanopb.

import Foundation
import NanopbDeviceLayout
import ProofSupport

public enum DeviceBuild {
    /// What a build produced: the layout, and the driver when the schema sets options.
    public struct Output: Sendable {
        public let layout: DeviceLayout
        /// nil when the schema sets no nanopb option (nothing was compiled).
        public let driver: String?
        /// Whether the generated C demanded PB_FIELD_32BIT.
        public let field32: Bool
    }

    /// Builds into `work` (created; owned by the caller). `root` is the Wireproof tree.
    /// Throws `DeviceProofError` with nanopb's or the compiler's reason when it cannot be built.
    public static func make(root: String, descriptorSet: String, protoDirectory: String, work: String,
                            optionsFile: String? = nil, searchPaths: [String] = []) throws -> Output {
        var arguments = [root + "/scripts/device-build.py", root + "/.deps/nanopb", descriptorSet, protoDirectory, work]
        if let optionsFile { arguments += ["--options", optionsFile] }
        for path in searchPaths { arguments += ["--search", path] }
        let build = try ChildProcess.run("/usr/bin/python3", arguments)
        guard build.status == 0 else {
            throw DeviceProofError(description: build.stderrText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let layout = try DeviceLayout(contentsOf: work + "/layout.json")
        guard layout.options else { return Output(layout: layout, driver: nil, field32: false) }

        let driver = work + "/device_driver", nanopb = root + "/.deps/nanopb"
        let generated = (FileManager.default.enumerator(atPath: work + "/gen")?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".c") }.sorted().map { work + "/gen/" + $0 }
        // nanopb's default configuration; PB_FIELD_32BIT only when the generated C asks for it
        // (it widens pb_size_t, and with it the padding that decides a static bytes field's room).
        func compile(_ extra: [String]) throws -> ChildProcess.Result {
            try ChildProcess.run("/usr/bin/env", ["cc", "-std=c11", "-O1", "-g", "-DPB_ENABLE_MALLOC=1"] + extra + [
                "-I", nanopb, "-I", work + "/gen", "-o", driver, root + "/Sources/Proof/DeviceDriver/device_driver.c",
            ] + generated + ["pb_common.c", "pb_decode.c", "pb_encode.c"].map { nanopb + "/" + $0 })
        }
        var compiled = try compile([]), field32 = false
        if compiled.status != 0 && compiled.stderrText.contains("PB_FIELD_32BIT") {
            compiled = try compile(["-DPB_FIELD_32BIT=1"])
            field32 = true
        }
        guard compiled.status == 0 else {
            let first = compiled.stderrText.split(separator: "\n").filter { $0.contains("error") }.prefix(3).joined(separator: "; ")
            throw DeviceProofError(description: "nanopb's generator output does not compile: \(first)")
        }
        return Output(layout: layout, driver: driver, field32: field32)
    }
}
