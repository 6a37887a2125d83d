import DeviceProof
import Foundation
import Testing
@testable import ProveKit
import TestSupport

/// The device party is skipped, saying so, when --no-device turns it off or generation found no
/// nanopb option; a device build that cannot be made stops the proof, saying how to skip the party.
@Suite struct ProverDeviceStepTests {
    @Test func turnedOffTheDevicePartyIsSkippedSayingSo() throws {
        let prover = try Prover(options: .init(protoDirectory: repositoryRoot + "/Protos", device: false, scratch: "/nonexistent-scratch"))
        guard case .skipped(let why) = try prover.runDevice(runnerBuilt: true) else { Issue.record("the device party ran"); return }
        #expect(why == "--no-device")
    }

    @Test func aSchemaGenerationFoundNoOptionInIsSkippedSayingSo() throws {
        let prover = try Prover(options: .init(protoDirectory: repositoryRoot + "/Protos", scratch: "/nonexistent-scratch"))
        guard case .skipped(let why) = try prover.runDevice(runnerBuilt: false) else { Issue.record("the device party ran"); return }
        #expect(why == "the schema sets no nanopb option")
    }

    @Test func aDeviceBuildThatCannotBeMadeSaysHowToSkipIt() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("device-step-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        // Generation left no device build in the scratch package: there is no layout to read.
        let prover = try Prover(options: .init(protoDirectory: repositoryRoot + "/Protos", scratch: scratch))
        do {
            _ = try prover.runDevice(runnerBuilt: true)
            Issue.record("the device party ran without a device build")
        } catch {
            #expect("\(error)".hasPrefix("the device build: "))
            #expect("\(error)".hasSuffix(" (--no-device skips the device party)"))
        }
    }

    @Test func theRunnersReportIsReadWhenItProvedOrFoundAFailureAndOtherwiseItStoppedAbnormally() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("device-runner-report-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var failing = DeviceProofReport()
        failing.failures = ["f.proto: the device refuses an exemplar"]
        let path = folder + "/device.json"
        try JSONEncoder().encode(failing).write(to: URL(fileURLWithPath: path))
        #expect(try Prover.runnerReport(status: 1, at: path).failures == failing.failures)
        #expect(try Prover.runnerReport(status: 0, at: path).failures == failing.failures)
        func stopped(_ status: Int32, _ at: String) -> String? {
            do { _ = try Prover.runnerReport(status: status, at: at); return nil } catch { return "\(error)" }
        }
        #expect(stopped(2, path) == "the device runner stopped abnormally (status 2)")
        #expect(stopped(-1, path) == "the device runner stopped abnormally (status -1)")
        #expect(stopped(0, folder + "/missing.json") == "the device runner stopped abnormally (status 0)")
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(stopped(1, path) == "the device runner stopped abnormally (status 1)")
    }
}
