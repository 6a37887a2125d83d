// Building the device side of a schema: the C driver (Sources/Proof/DeviceDriver/device_driver.c)
// compiled with nanopb's build of the schema under its own options and nanopb's own runtime from
// the Wireproof tree's .deps/nanopb. Generation writes that build (`GenerationRequest.deviceBuildOut`,
// scripts/device-build.py), so the device and the facades' limits read the same option sources.

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

    /// Compiles the driver into `work`, which holds nanopb's build of the schema (`layout.json`,
    /// and `gen/` when the layout says the schema sets options). `root` is the Wireproof tree.
    /// Throws `DeviceProofError` with the compiler's reason when it does not compile.
    public static func compile(root: String, work: String) throws -> Output {
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
        if compiled.status != 0 && demandsField32(compiled.stderrText) {
            compiled = try compile(["-DPB_FIELD_32BIT=1"])
            field32 = true
        }
        guard compiled.status == 0 else {
            let first = compiled.stderrText.split(separator: "\n").filter { $0.contains("error") }.prefix(3).joined(separator: "; ")
            throw DeviceProofError(description: "nanopb's generator output does not compile: \(first)")
        }
        return Output(layout: layout, driver: driver, field32: field32)
    }

    /// Whether the compiler's complaint is one PB_FIELD_32BIT answers: the generator's own
    /// `#error` naming it, or pb.h's static assertion that a field's tag, offset or size does not
    /// fit its descriptor width (`FIELDINFO_DOES_NOT_FIT_width<N>_field<tag>`), which the generator
    /// does not foresee for tags past 65535; with PB_FIELD_32BIT those widths hold 30 bits.
    static func demandsField32(_ stderr: String) -> Bool {
        stderr.contains("PB_FIELD_32BIT") || stderr.contains("FIELDINFO_DOES_NOT_FIT")
    }
}
