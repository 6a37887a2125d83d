import DeviceProof
import FacadeProof
import Foundation
import ProtoOracle
import ProtoSchema
import Testing

/// How `DeviceProof.run` judges each answer of the device (here a stand-in driver answering as the
/// test says): accepted and the same, accepted with a field dropped by option ("truncated", also
/// when the facades then miss a required field), accepted past a limit, accepted as something
/// else, refused without an option, unable to re-encode, crashed; limit exemplars refused "at" or
/// "past" with another message than their limit's; and the seeded mutants' verdicts tallied.
@Suite(.serialized) struct DeviceProofVerdictsTests {
    typealias L = HandWrittenDeviceLayout

    struct StandInRefusal: Error, CustomStringConvertible { let description: String }

    /// Facades that read as the oracle and refuse a message without its required fields.
    static func strictFacade(_ type: String) -> FacadeMessageType {
        FacadeMessageType(type) { bytes in
            let message = try DynamicMessage(serializedBytes: bytes, schema: L.schemas.message(type)!, in: L.schemas)
            guard message.isInitialized else { throw StandInRefusal(description: "missing required field") }
            return message.serializedBytes()
        }
    }
    static func catalog(_ types: [String], _ exemplars: [(name: String, type: String, bytes: [UInt8])]) -> FacadeCatalog {
        FacadeCatalog(messageTypes: types.sorted().map(strictFacade),
                      exemplars: exemplars.map { e in FacadeExemplar(e.name, e.type, build: { e.bytes }) },
                      exclusions: [], protoDirectoryHint: nil)
    }

    static let devPlain: [UInt8] = [0x08, 0x01, 0x12, 0x02, 0x61, 0x62]
    static let lossy: [UInt8] = [0x0A, 0x01, 0x62, 0x10, 0x01, 0x18, 0x02]  // blob "b", x = 1, y = 2

    @Test func everyKindOfDeviceAnswerIsCountedOrNamedAsItsFailure() throws {
        let exemplars: [(name: String, type: String, bytes: [UInt8])] = [
            ("plain", "dv.Dev", Self.devPlain),
            ("long name", "dv.Dev", [0x08, 0x01, 0x12, 0x06] + Array("abcdef".utf8)),
            ("changed", "dv.Dev", [0x08, 0x01]),
            ("note dropped", "dv.Dev", [0x08, 0x01, 0x1A, 0x02, 0x7A, 0x7A]),
            ("refused", "dv.Dev", [0x08, 0x01]),
            ("no re-encoding", "dv.Dev", [0x08, 0x01]),
            ("lossy", "dv.Lossy", Self.lossy),
            ("lossy changed", "dv.Lossy", Self.lossy),
            ("crash", "dv.Dev", [0x08, 0x01]),
        ]
        let firstRun: [DeviceAnswer] = [
            .accepted(Self.devPlain), .accepted(exemplars[1].bytes), .accepted([0x08, 0x02]), .accepted([0x08, 0x01]),
            .refused("string overflow"), .reencodeFailed("stream full"), .accepted([0x10, 0x01]), .accepted([0x10, 0x05]),
        ]
        // The limit exemplars follow, in the order LimitExemplars gives them: each answered as the
        // device must, except the first "at" (refused) and the first "past" (refused for another reason).
        let limits = LimitExemplars.all(layout: L.layout, schemas: L.schemas).exemplars.filter { $0.messageType == "dv.Dev" }
        let firstAt = try #require(limits.firstIndex { $0.isAt }), firstPast = try #require(limits.firstIndex { !$0.isAt })
        let secondRun: [DeviceAnswer] = limits.enumerated().map { index, limit in
            if index == firstAt { return .refused("string overflow") }
            if index == firstPast { return .refused("bogus") }
            return limit.isAt ? .accepted(limit.message.serializedBytes()) : .refused(limit.limit.decodeErrors.sorted()[0])
        }
        // The driver dies of signal 11 on "crash", the last exemplar, and runs again for the rest.
        let standIn = try StandInDeviceDriver(runs: [(firstRun, 139), (secondRun, 0)])
        defer { standIn.remove() }
        let report = try DeviceProof.run(catalog: Self.catalog(["dv.Dev", "dv.Lossy"], exemplars), schemas: L.schemas,
                                         layout: L.layout, driver: standIn.driver)

        let at = limits.filter(\.isAt).count, past = limits.count - at
        #expect(at > 1 && past > 1)
        #expect(report.rows.map(\.file) == ["dv/dev.proto"])
        let row = report.total
        #expect([row.exemplars, row.accepted, row.truncated, row.filled, row.refusedByOption] as [Int] == [9, 3, 2, 0, 0])
        #expect([row.limitAt, row.limitAtAccepted, row.limitPast, row.limitPastRefused, row.facadesAcceptPast] as [Int] == [at, at - 1, past, past - 1, past])
        #expect(row.failed == 8 && report.failures.count == 8, "\(report.failures)")
        #expect(!report.passed)
        let failures = report.failures
        #expect(failures.contains("long name: the device accepted name: 6 bytes past max_length = 4"))
        #expect(failures.contains { $0.hasPrefix("changed: the device's re-encoding, read back by the facades, differs: id: mismatch (sent ") })
        #expect(failures.contains("refused: the device refused it ('string overflow') and no option explains it"))
        #expect(failures.contains("no re-encoding: the device decoded it but could not re-encode it: stream full"))
        #expect(failures.contains("lossy changed: the facades refuse the device's re-encoding: missing required field"))
        #expect(failures.contains("crash: the device build crashed (signal 11) decoding it"))
        #expect(failures.contains("\(limits[firstAt].name): the device refused a value at its limit (string overflow)"))
        let expectedPast = limits[firstPast].limit.decodeErrors.sorted().joined(separator: " / ")
        #expect(failures.contains("\(limits[firstPast].name): the device refused it with 'bogus', not with \(expectedPast)"))
        #expect(report.findings == [
            "truncated: note dropped: note: truncated (type = FT_CALLBACK, no callback set)",
            "truncated: lossy: blob: truncated (no max_size/max_count: nanopb's fallback FT_CALLBACK, no callback set); "
                + "y: truncated (type = FT_IGNORE); a required field is dropped, so the facades refuse what the device sends back",
        ])
    }

    @Test func anAtLimitValueSentBackWithoutADroppedRequiredFieldIsAcceptedAtTheLimitOnce() throws {
        // Clipped's required y is FT_IGNORE on the device: every value comes back without it, which
        // the facades refuse; the option explains it, so each "at" exemplar counts as accepted at
        // its limit (not as an accepted exemplar), and each "past" one is refused as it must be.
        let limits = LimitExemplars.all(layout: L.layout, schemas: L.schemas).exemplars.filter { $0.messageType == "dv.Clipped" }
        let at = limits.filter(\.isAt), past = limits.filter { !$0.isAt }
        #expect(!at.isEmpty && !past.isEmpty)
        let answers: [DeviceAnswer] = try limits.map { limit in
            let bytes = limit.message.serializedBytes()
            guard limit.isAt else { return .refused(limit.limit.decodeErrors.sorted()[0]) }
            try #require(bytes.starts(with: [0x08, 0x01]), "the base holds y = 1 first")
            return .accepted(Array(bytes.dropFirst(2)))
        }
        let standIn = try StandInDeviceDriver(runs: [(answers, 0)])
        defer { standIn.remove() }
        let report = try DeviceProof.run(catalog: Self.catalog(["dv.Clipped"], []), schemas: L.schemas, layout: L.layout, driver: standIn.driver)
        let row = report.total
        #expect([row.limitAt, row.limitAtAccepted, row.limitPast, row.limitPastRefused] as [Int] == [at.count, at.count, past.count, past.count])
        #expect([row.exemplars, row.accepted, row.truncated, row.failed] as [Int] == [0, 0, 0, 0])
        #expect(report.failures.isEmpty && report.passed, "\(report.failures)")
        #expect(report.findings == at.map { "truncated: \($0.name): y: truncated (type = FT_IGNORE); a required field is dropped, so the facades refuse what the device sends back" })
    }

    @Test func mutantVerdictsAreTalliedAndOptionExplanationsSummedPerType() throws {
        let seed: UInt64 = 9, count = 8
        var random = SplitMix64(seed: seed ^ DecodeMutationCheck.stableHash("dv.Lossy"))
        let mutants = (0..<count).map { _ in DecodeMutationCheck.mutate(Self.lossy, &random) }
        let facade = Self.strictFacade("dv.Lossy")
        let readable = mutants.map { (try? facade.decodeReencode($0)) != nil }
        // Mutant 1 cannot be re-encoded; the first two other readable ones come back without the
        // required fields the device drops; every other one as the facades read it (or refused).
        let explained = Array(readable.indices.filter { $0 != 1 && readable[$0] }.prefix(2))
        try #require(explained.count == 2, "the seed gives fewer than two readable mutants")
        let answers: [DeviceAnswer] = mutants.indices.map { index in
            if index == 1 { return .reencodeFailed("boom") }
            if explained.contains(index) { return .accepted([0x10, 0x01]) }
            return readable[index] ? .accepted(mutants[index]) : .refused("x")
        }
        // The exemplar comes back without the fields the device drops (counted as truncated).
        let standIn = try StandInDeviceDriver(runs: [([.accepted([0x10, 0x01])], 0), (answers, 0)])
        defer { standIn.remove() }
        let report = try DeviceProof.run(catalog: Self.catalog(["dv.Lossy"], [("lossy", "dv.Lossy", Self.lossy)]), schemas: L.schemas,
                                         layout: L.layout, driver: standIn.driver, mutants: count, seed: seed)
        let row = report.total
        #expect([row.exemplars, row.accepted, row.truncated, row.limitAt, row.limitPast] as [Int] == [1, 1, 1, 0, 0])
        #expect([row.mutants, row.mutantsSame, row.mutantsByOption, row.mutantsMerged, row.mutantsStock, row.failed] as [Int] == [count, count - 3, 2, 0, 0, 1])
        #expect(report.failures == ["seed 9 dv.Lossy mutant 1: the device decoded it but could not re-encode it: boom — input \(hexPreview(mutants[1], limit: 256))"])
        #expect(report.findings.dropFirst() == ["mutants of dv.Lossy: 2 differ as an option says, e.g. mutant \(explained[0]): "
                                    + "a required field the device drops (blob, y): the facades refuse what it sends back"])
    }
}
