@testable import DeviceProof
import FacadeProof
import Foundation
import ProtoOracle
import Testing

/// The device runner's command: its options (exit 2 for anything it cannot use), exit 0 when the
/// device agrees and 1 when a check failed, the JSON report it writes (sorted keys, indented, read
/// back whole), the lines it prints (at most `shown` findings, skips and failures, with a count of
/// the rest) and the verdict line of `wireproof prove`.
@Suite(.serialized) struct DeviceProofCommandTests {
    typealias L = HandWrittenDeviceLayout

    /// A folder with the schema's descriptor set and the layout, and a catalog of dv.Lossy.
    struct Setup {
        let folder: String
        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-devcmd-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(L.fixture.descriptorSet).write(to: URL(fileURLWithPath: folder + "/set.pb"))
            try L.layoutJSON.write(toFile: folder + "/layout.json", atomically: true, encoding: .utf8)
        }
        func arguments(driver: String, _ more: [String] = []) -> [String] {
            ["--descriptor-set", folder + "/set.pb", "--layout", folder + "/layout.json", "--driver", driver, "--work", folder + "/work"] + more
        }
        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }
    static let lossy: [UInt8] = [0x0A, 0x01, 0x62, 0x10, 0x01, 0x18, 0x02]
    static let catalog = FacadeCatalog(
        messageTypes: [FacadeMessageType("dv.Lossy", decodeReencode: { $0 })],
        exemplars: [FacadeExemplar("lossy", "dv.Lossy", build: { lossy })], exclusions: [], protoDirectoryHint: nil)
    static let empty = FacadeCatalog(messageTypes: [], exemplars: [], exclusions: [], protoDirectoryHint: nil)

    @Test func optionsItCannotUseExitWithStatus2() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let valid = setup.arguments(driver: "/usr/bin/true")
        for arguments in [
            valid + ["--verbose", "1"], valid + ["--json"], Array(valid.dropLast(2)),
            valid + ["--mutants", "-1"], valid + ["--mutants", "many"], valid + ["--seed", "-3"],
        ] {
            #expect(DeviceProofCommand.main(catalog: Self.empty, arguments: arguments) == 2, "\(arguments.suffix(2))")
        }
        #expect(DeviceProofCommand.main(catalog: Self.empty, arguments: valid) == 0)
        #expect(DeviceProofCommand.main(catalog: Self.empty, arguments: valid + ["--mutants", "0", "--seed", "5"]) == 0)
        #expect(DeviceProofCommand.main(catalog: Self.empty, arguments: setup.arguments(driver: setup.folder + "/missing")) == 2)
    }

    @Test func aFailedCheckExitsWith1AndTheJSONReportReadsBackWhole() throws {
        let setup = try Setup()
        defer { setup.remove() }
        // One exemplar, one driver run (no --mutants: none); a second run would find no answers.
        let standIn = try StandInDeviceDriver(runs: [([.reencodeFailed("stream full")], 0)])
        defer { standIn.remove() }
        let json = setup.folder + "/report.json"
        let peer = PeerCodec(name: "echo") { _, _ in nil }
        let status = DeviceProofCommand.main(catalog: Self.catalog, peer: peer, arguments: setup.arguments(driver: standIn.driver.executable, ["--json", json]))
        #expect(status == 1)
        let text = String(decoding: try #require(FileManager.default.contents(atPath: json)), as: UTF8.self)
        let keys = ["\"failures\"", "\"findings\"", "\"passed\"", "\"peer\"", "\"rows\"", "\"skipped\"", "\"total\""]
        let positions = keys.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted(), "keys not sorted: \(text.prefix(200))")
        #expect(text.hasPrefix("{\n  \"failures\" : ["), "not indented: \(text.prefix(40))")
        let report = try JSONDecoder().decode(DeviceProofReport.self, from: Data(text.utf8))
        #expect(report.failures == ["lossy: the device decoded it but could not re-encode it: stream full"])
        #expect(report.peer == "echo")
        #expect(report.rows.map(\.file) == ["dv/dev.proto"] && report.total.exemplars == 1 && report.total.failed == 1)
    }

    @Test func aReportSurvivesItsJSONRoundTripFieldByField() throws {
        var report = DeviceProofReport()
        var row = DeviceProofReport.Row(file: "a.proto")
        row.exemplars = 3; row.mutantsStock = 2; row.peerTruncated = 1
        report.rows = [row]; report.total = row
        report.findings = ["finding"]; report.failures = ["failure"]; report.skipped = ["skipped"]; report.peer = "sp"
        let back = try JSONDecoder().decode(DeviceProofReport.self, from: try JSONEncoder().encode(report))
        #expect(back.rows == [row] && back.total == row)
        #expect(back.findings == ["finding"] && back.failures == ["failure"] && back.skipped == ["skipped"] && back.peer == "sp")
        report.peer = nil
        #expect(try JSONDecoder().decode(DeviceProofReport.self, from: try JSONEncoder().encode(report)).peer == nil)
    }

    @Test func theSummaryShowsAtMostShownOfEachListWithACountOfTheRest() {
        var report = DeviceProofReport()
        report.findings = ["f1", "f2", "f3"]; report.skipped = ["s1", "s2", "s3"]; report.failures = ["x1", "x2", "x3"]
        #expect(DeviceProofCommand.summary(of: report, shown: 2) == [
            report.table, "device: f1", "device: f2", "device: ... and 1 more findings",
            "device: no limit exemplars for s1", "device: no limit exemplars for s2",
            "FAIL device: x1", "FAIL device: x2", "... and 1 more device failures",
        ])
        #expect(DeviceProofCommand.summary(of: report, shown: 3).count == 1 + 9)
        report.findings = (1...21).map { "f\($0)" }; report.skipped = []; report.failures = (1...20).map { "x\($0)" }
        let lines = DeviceProofCommand.summary(of: report)
        #expect(lines.count == 1 + 20 + 1 + 20)
        #expect(lines[21] == "device: ... and 1 more findings" && lines.last == "FAIL device: x20")
    }

    @Test func theVerdictNamesTheAppsCheckAndThePeerOnlyWhenTheyTookPart() {
        var report = DeviceProofReport()
        report.total.exemplars = 7; report.total.accepted = 3; report.total.refusedByOption = 1; report.total.truncated = 2
        report.total.limitAt = 5; report.total.limitAtAccepted = 4; report.total.limitPast = 7; report.total.limitPastRefused = 6
        report.failures = ["a", "b"]
        #expect(report.verdict == "device 3 accepted / 1 refused by option / 2 truncated of 7 exemplars, limits 4/5 at accepted, 6/7 past refused (2 failed)")
        report.total.appChecked = 1; report.total.appFlagsPast = 2
        report.peer = "sp"; report.total.peerAccepted = 5; report.total.peerRefusedByOption = 1; report.total.peerExemplars = 6
        #expect(report.verdict == "device 3 accepted / 1 refused by option / 2 truncated of 7 exemplars, limits 4/5 at accepted, 6/7 past refused"
                + ", app's limit check flagged 2/7 past, sp's encodings 5 accepted / 1 refused by option of 6 (2 failed)")
    }
}
