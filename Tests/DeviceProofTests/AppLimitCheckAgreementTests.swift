import DeviceProof
import FacadeProof
import Foundation
import ProtoOracle
import Testing

/// Facades generated with `--limits-from-options` carry the device's limits: `DeviceProof.run`
/// asks their check about every facade exemplar and limit exemplar it sends. The check must name
/// exactly what the layout finds (or, where the layout finds something, refuse the value
/// outright); naming something else, or failing on a value within every limit, is a failure.
@Suite(.serialized) struct AppLimitCheckAgreementTests {
    typealias L = HandWrittenDeviceLayout
    struct StandInRefusal: Error, CustomStringConvertible { let description: String }

    @Test func theAppsCheckMustNameWhatTheLayoutFinds() throws {
        let plain: [UInt8] = [0x08, 0x01], wrong: [UInt8] = [0x08, 0x02], throwing: [UInt8] = [0x08, 0x03]
        let limits = LimitExemplars.all(layout: L.layout, schemas: L.schemas).exemplars.filter { $0.messageType == "dv.Dev" }
        let firstPast = try #require(limits.firstIndex { !$0.isAt })
        let refusedOutright = limits[firstPast].message.serializedBytes()
        // The app's check: what the layout finds, except on three inputs.
        let check: @Sendable ([UInt8]) throws -> [String] = { bytes in
            if bytes == wrong { return ["bogus"] }
            if bytes == throwing || bytes == refusedOutright { throw StandInRefusal(description: "integer too large") }
            return DeviceLimitCheck.violations(of: try L.message("Dev", bytes), layout: L.layout).map(\.description)
        }
        let catalog = FacadeCatalog(
            messageTypes: [FacadeMessageType("dv.Dev", decodeReencode: { $0 }, deviceLimitViolations: check)],
            exemplars: [("plain", plain), ("wrong", wrong), ("throwing", throwing)].map { e in FacadeExemplar(e.0, "dv.Dev", build: { e.1 }) },
            exclusions: [], protoDirectoryHint: nil)
        let limitAnswers: [DeviceAnswer] = limits.map {
            $0.isAt ? .accepted($0.message.serializedBytes()) : .refused($0.limit.decodeErrors.sorted()[0])
        }
        let standIn = try StandInDeviceDriver(runs: [([.accepted(plain), .accepted(wrong), .accepted(throwing)] + limitAnswers, 0)])
        defer { standIn.remove() }
        let report = try DeviceProof.run(catalog: catalog, schemas: L.schemas, layout: L.layout, driver: standIn.driver)

        let past = limits.filter { !$0.isAt }.count
        #expect(report.total.appChecked == 1 + limits.count)
        #expect(report.total.appFlagsPast == past)
        #expect(report.failures == [
            "wrong: the facades' deviceLimitViolations() names [bogus], the device's layout []",
            "throwing: the facades cannot decode it to check its limits: integer too large",
        ])
        #expect(report.total.failed == 2 && report.total.accepted == 3)
    }
}
