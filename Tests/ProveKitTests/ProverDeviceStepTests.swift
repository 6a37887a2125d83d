import Testing
@testable import ProveKit
import TestSupport

/// The device party is skipped, saying so, when --no-device turns it off.
@Suite struct ProverDeviceStepTests {
    @Test func turnedOffTheDevicePartyIsSkippedSayingSo() throws {
        let prover = try Prover(options: .init(protoDirectory: repositoryRoot + "/Protos", device: false, scratch: "/nonexistent-scratch"))
        guard case .skipped(let why) = try prover.runDevice() else { Issue.record("the device party ran"); return }
        #expect(why == "--no-device")
    }
}
