// The device party on real device builds (nanopb's generator and runtime, compiled here): limit
// exemplars of every kind land "at" accepted and "past" refused; a limit the device does not
// enforce, a refusal no option explains and a crash of the device build are each caught; and a
// read-back is judged field by field (dropped by option, zero-filled by option, or a failure).
// The facades are stood in for by the identity (the device's bytes read back as they are).

import DeviceProof
import FacadeProof
import Foundation
import ProofSupport
import ProtoOracle
import ProtoSchema
import Testing
import TestSupport
@testable import ProtoGenKit

private let root = repositoryRoot

/// A schema folder compiled and built for the device into a fresh folder (removed by the caller).
private struct BuiltDevice {
    let work: String
    let schemas: SchemaSet
    let layout: DeviceLayout
    let driver: DeviceDriver

    init(protoDirectory: String) throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-device-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let protos = try FileManager.default.contentsOfDirectory(atPath: protoDirectory).filter { $0.hasSuffix(".proto") && $0 != "nanopb.proto" }.sorted()
        let set = work + "/schema.pb"
        let protoc = try ChildProcess.run("/usr/bin/env", ["protoc", "-I", protoDirectory, "-I", "/usr/include",
                                                           "-I", root + "/.deps/nanopb/generator/proto", "--include_imports",
                                                           "--descriptor_set_out=" + set] + protos, in: protoDirectory)
        try #require(protoc.status == 0, "\(protoc.stderrText)")
        schemas = try SchemaSet(contentsOf: set)
        // nanopb's build as generation writes it for the device party, then the driver on it.
        try FileManager.default.createDirectory(atPath: work + "/device", withIntermediateDirectories: true)
        let sources = try SchemaGeneration.optionSources(optionsFile: nil, protoDirectory: protoDirectory, protoPaths: [])
        _ = try SchemaGeneration.deviceLayoutOf(setPath: set, protoDirectory: protoDirectory, optionArguments: sources,
                                                into: work + "/device", tools: GenerationTools.inTree(root))
        let built = try DeviceBuild.compile(root: root, work: work + "/device")
        layout = built.layout
        driver = DeviceDriver(executable: try #require(built.driver, "the schema sets options"), workDirectory: work + "/run")
    }

    /// A catalog whose "facades" return the bytes they are given, with these exemplars.
    func catalog(_ exemplars: [FacadeExemplar] = []) -> FacadeCatalog {
        let types = layout.messages.map(\.fullName).sorted().map { FacadeMessageType($0, decodeReencode: { $0 }) }
        return FacadeCatalog(messageTypes: types, exemplars: exemplars, exclusions: [], protoDirectoryHint: nil)
    }

    func remove() { try? FileManager.default.removeItem(atPath: work) }
}

private func kindName(_ kind: DeviceLimit.Kind) -> String {
    switch kind {
    case .stringBytes: "string"
    case .bytes: "bytes"
    case .fixedBytes: "fixed_length"
    case .count: "max_count"
    case .fixedCount: "fixed_count"
    case .integer: "int_size"
    }
}

@Suite(.serialized) struct DeviceProofTests {
    @Test func everyLimitKindIsAcceptedAtItsLimitAndRefusedOnePast() throws {
        let device = try BuiltDevice(protoDirectory: root + "/Tests/Schemas/options-wildcards")
        defer { device.remove() }
        let limits = LimitExemplars.all(layout: device.layout, schemas: device.schemas).exemplars
        #expect(Set(limits.map { kindName($0.limit.kind) }) == ["string", "bytes", "fixed_length", "max_count", "fixed_count", "int_size"])
        // An int_size exemplar is the extreme the C type holds, or one beyond it: never further.
        #expect(limits.filter { $0.name.hasPrefix("wild.Sensor.offset ") }.map(\.name).sorted() == [
            "wild.Sensor.offset int_size = IS_16: at (-32768)", "wild.Sensor.offset int_size = IS_16: at (32767)",
            "wild.Sensor.offset int_size = IS_16: past (-32769)", "wild.Sensor.offset int_size = IS_16: past (32768)"])
        // A count is sent at its limit and one past it; a fixed count also one short of it.
        #expect(limits.filter { $0.name.hasPrefix("wild.Sensor.triple ") || $0.name.hasPrefix("wild.Sensor.readings ") }.map(\.name).sorted() == [
            "wild.Sensor.readings max_count = 5: at (5 elements)", "wild.Sensor.readings max_count = 5: past (6 elements)",
            "wild.Sensor.triple fixed_count (max_count = 2): at (2 elements)", "wild.Sensor.triple fixed_count (max_count = 2): past (1 elements)",
            "wild.Sensor.triple fixed_count (max_count = 2): past (3 elements)"])
        let report = try DeviceProof.run(catalog: device.catalog(), schemas: device.schemas, layout: device.layout, driver: device.driver)
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.total.limitAt > 0 && report.total.limitAtAccepted == report.total.limitAt)
        #expect(report.total.limitPast > 0 && report.total.limitPastRefused == report.total.limitPast)
        #expect(report.total.facadesAcceptPast == report.total.limitPast, "the stand-in facades have no limits")
    }

    @Test func aLimitTheDeviceDoesNotEnforceFailsTheProof() throws {
        let device = try BuiltDevice(protoDirectory: root + "/Tests/Schemas/options-wildcards")
        defer { device.remove() }
        var layout = device.layout  // claim Sensor.name holds 9 bytes where the device holds 15
        let m = try #require(layout.messages.firstIndex { $0.fullName == "wild.Sensor" })
        let f = try #require(layout.messages[m].fields.firstIndex { $0.name == "name" })
        layout.messages[m].fields[f].maxSize = 10
        let report = try DeviceProof.run(catalog: device.catalog(), schemas: device.schemas, layout: layout, driver: device.driver)
        #expect(report.failures.contains { $0.hasPrefix("wild.Sensor.name max_size = 10: past (10 bytes): the device accepted a value past") },
                "\(report.failures)")
    }

    @Test func aRefusalNoOptionExplainsIsAFailureAndOneAnOptionExplainsNamesIt() throws {
        let device = try BuiltDevice(protoDirectory: root + "/Tests/Schemas/options-wildcards")
        defer { device.remove() }
        let label = [0x12, 9] + Array(repeating: UInt8(0x61), count: 9)  // wild.Sensor.label, 9 bytes past max_length 8
        let exemplar = FacadeExemplar("long label", "wild.Sensor", build: { label })
        let named = try DeviceProof.run(catalog: device.catalog([exemplar]), schemas: device.schemas, layout: device.layout, driver: device.driver)
        #expect(named.total.refusedByOption == 1 && named.failures.isEmpty, "\(named.failures)")
        #expect(named.findings.contains("refused by option: long label: label: 9 bytes past max_length = 8 (device: string overflow)"), "\(named.findings)")

        var layout = device.layout  // forget the limit: the same refusal is now unexplained
        let m = try #require(layout.messages.firstIndex { $0.fullName == "wild.Sensor" })
        let f = try #require(layout.messages[m].fields.firstIndex { $0.name == "label" })
        layout.messages[m].fields[f].maxSize = nil
        let unexplained = try DeviceProof.run(catalog: device.catalog([exemplar]), schemas: device.schemas, layout: layout, driver: device.driver)
        #expect(unexplained.failures.contains("long label: the device refused it ('string overflow') and no option explains it"), "\(unexplained.failures)")
    }

    @Test func aPeersEncodingOfEveryExemplarIsSentToTheDeviceAndJudgedAsTheFacadesAre() throws {
        let device = try BuiltDevice(protoDirectory: root + "/Tests/Schemas/options-wildcards")
        defer { device.remove() }
        let probe: [UInt8] = [0x0a, 5] + Array("probe".utf8)  // wild.Sensor.name
        let catalog = device.catalog([FacadeExemplar("probe", "wild.Sensor", build: { probe })])
        let sameBytes = PeerCodec(name: "echo") { _, bytes in .accepted(bytes) }
        let echoed = try DeviceProof.run(catalog: catalog, schemas: device.schemas, layout: device.layout, driver: device.driver, peer: sameBytes)
        #expect(echoed.failures.isEmpty, "\(echoed.failures)")
        #expect(echoed.peer == "echo")
        let echoCounts = [echoed.total.peerExemplars, echoed.total.peerSameBytes, echoed.total.peerAccepted, echoed.total.peerRefusedByOption]
        #expect(echoCounts == [1, 1, 1, 0])
        #expect(echoed.total.exemplars == 1 && echoed.total.accepted == 1, "the facades' own exemplar is counted apart")

        // A peer that adds a label of 9 bytes (max_length 8): the device refuses its encoding by option.
        let longLabel = PeerCodec(name: "wordy") { _, bytes in .accepted(bytes + [0x12, 9] + Array(repeating: 0x61, count: 9)) }
        let wordy = try DeviceProof.run(catalog: catalog, schemas: device.schemas, layout: device.layout, driver: device.driver, peer: longLabel)
        #expect(wordy.failures.isEmpty, "\(wordy.failures)")
        let wordyCounts = [wordy.total.peerExemplars, wordy.total.peerSameBytes, wordy.total.peerAccepted, wordy.total.peerRefusedByOption]
        #expect(wordyCounts == [1, 0, 0, 1])
        #expect(wordy.findings.contains("refused by option: probe (wordy's encoding): label: 9 bytes past max_length = 8 (device: string overflow)"),
                "\(wordy.findings)")
        #expect(wordy.table.contains("peer refused"), "the table shows the peer's columns")

        // A peer that adds `note`, a callback field the device drops: accepted, counted truncated.
        let noted = PeerCodec(name: "noted") { _, bytes in .accepted(bytes + [0x52, 2] + Array("hi".utf8)) }
        let withNote = try DeviceProof.run(catalog: catalog, schemas: device.schemas, layout: device.layout, driver: device.driver, peer: noted)
        #expect(withNote.failures.isEmpty, "\(withNote.failures)")
        let noteCounts = [withNote.total.peerAccepted, withNote.total.peerTruncated, withNote.total.truncated]
        #expect(noteCounts == [1, 1, 0])
        #expect(echoed.total.peerTruncated == 0, "the echoed encoding holds no dropped field")
    }

    @Test func aReadBackIsJudgedFieldByField() throws {
        let device = try BuiltDevice(protoDirectory: root + "/Tests/Schemas/options-wildcards")
        defer { device.remove() }
        var sent = try #require(DynamicMessage("wild.Sensor", in: device.schemas))
        sent.set(number: 1, .text("probe"))
        sent.set(number: 10, .text("dropped by the device"))
        var back = try #require(DynamicMessage("wild.Sensor", in: device.schemas))
        back.set(number: 1, .text("probe"))
        back.set(number: 4, .bytes([0, 0, 0]))
        let judged = DeviceComparison.differences(sent: sent, back: back, layout: device.layout)
        #expect(judged.map(\.description) == ["key: filled (fixed_length (max_size = 3))",
                                              "note: truncated (type = FT_CALLBACK, no callback set)"])
        back.set(number: 1, .text("probf"))
        #expect(DeviceComparison.differences(sent: sent, back: back, layout: device.layout).contains { $0.kind == .mismatch && $0.path == "name" })
    }

    @Test func aStaticBytesFieldIsJudgedByTheRoomItsPaddedStructHolds() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-device-schema-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "syntax = \"proto3\";\nmessage Odd { bytes b = 1; }\n".write(toFile: dir + "/odd.proto", atomically: true, encoding: .utf8)
        try "Odd.b max_size:5\n".write(toFile: dir + "/odd.options", atomically: true, encoding: .utf8)
        let device = try BuiltDevice(protoDirectory: dir)
        defer { device.remove() }
        let report = try DeviceProof.run(catalog: device.catalog(), schemas: device.schemas, layout: device.layout, driver: device.driver)
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.findings.contains("wider than declared: Odd.b: max_size = 5, but the device accepts up to 6 bytes (nanopb checks against its C struct, padded to its alignment)"),
                "\(report.findings)")
        #expect(report.total.limitAtAccepted == 1 && report.total.limitPastRefused == 1, "6 bytes accepted, 7 refused")
    }

    @Test func aCrashOfTheDeviceBuildIsAnsweredAndTheRestStillRun() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-device-schema-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            syntax = "proto2";
            message Names { repeated string name = 1; optional string tag = 2; }
            """.write(toFile: dir + "/names.proto", atomically: true, encoding: .utf8)
        try "Names.name type:FT_POINTER max_count:4 fixed_count:true\nNames.tag max_size:4\n".write(toFile: dir + "/names.options", atomically: true, encoding: .utf8)
        let device = try BuiltDevice(protoDirectory: dir)
        defer { device.remove() }
        func names(_ n: Int) -> [UInt8] { (0..<n).flatMap { _ in [0x0a, 1, 0x61] as [UInt8] } }
        let longTag: [UInt8] = [0x12, 4, 0x61, 0x62, 0x63, 0x64]  // 4 bytes where max_size 4 holds 3
        // nanopb 0.4.7's pb_release frees all four slots of a FT_POINTER fixed_count array: one
        // allocated for two (a refused message), or none at all when the array was never sent
        // (a refused message, or one decoded fine and released by the app).
        let answers = try device.driver.run([(0, names(4)), (0, names(2)), (0, names(4)), (0, longTag), (0, [0x12, 3, 0x61, 0x62, 0x63])])
        #expect(answers == [.accepted(names(4)), .crashed(11), .accepted(names(4)), .crashed(11), .crashed(11)])
    }

    @Test func aRunningSessionAnswersAsTheBatchDriverAndStartsAgainAfterACrash() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-device-schema-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "syntax = \"proto2\";\nmessage Names { repeated string name = 1; optional string tag = 2; }\n"
            .write(toFile: dir + "/names.proto", atomically: true, encoding: .utf8)
        try "Names.name type:FT_POINTER max_count:4 fixed_count:true\nNames.tag max_size:4\n".write(toFile: dir + "/names.options", atomically: true, encoding: .utf8)
        let device = try BuiltDevice(protoDirectory: dir)
        defer { device.remove() }
        func names(_ n: Int) -> [UInt8] { (0..<n).flatMap { _ in [0x0a, 1, 0x61] as [UInt8] } }
        let requests: [(index: Int, bytes: [UInt8])] = [(0, names(4)), (0, names(2)), (0, names(4)), (0, [0x12, 2, 0x61]), (0, [0x12, 1, 0x61])]
        let session = DeviceSession(executable: device.driver.executable)
        let answers = try requests.map { try session.answer(index: $0.index, bytes: $0.bytes) }
        #expect(answers == [.accepted(names(4)), .crashed(11), .accepted(names(4)), .crashed(11), .crashed(11)])
        #expect(answers == (try device.driver.run(requests)))
    }

    // Seeded mutants: one input judged by the device build and the facades (stood in for by the
    // oracle, which reads and re-encodes as protobuf does).

    /// The oracle as a facade of `type`: it refuses what protobuf refuses and re-encodes the rest.
    private func oracleFacade(_ type: String, _ schemas: SchemaSet) throws -> FacadeMessageType {
        let schema = try #require(schemas.message(type))
        return FacadeMessageType(type) { try DynamicMessage(serializedBytes: $0, schema: schema, in: schemas).serializedBytes() }
    }

    private func judge(_ device: BuiltDevice, _ type: String, _ input: [UInt8], answer given: DeviceAnswer? = nil) throws -> DeviceMutantVerdict {
        let index = try #require(device.layout.index(of: type))
        let answer = try given ?? device.driver.run([(index, input)])[0]
        return DeviceMutantCheck.judge(input, schema: try #require(device.schemas.message(type)), facade: try oracleFacade(type, device.schemas),
                                       answer: answer, schemas: device.schemas, layout: device.layout)
    }

    @Test func aMutantTheDeviceRefusesPastALimitIsExplainedByThatOption() throws {
        let device = try BuiltDevice(protoDirectory: root + "/Tests/Schemas/options-wildcards")
        defer { device.remove() }
        let label = [0x12, 9] + Array(repeating: UInt8(0x61), count: 9)  // wild.Sensor.label, 9 bytes past max_length 8
        #expect(try judge(device, "wild.Sensor", label) == .explainedByOption("refused by option: label: 9 bytes past max_length = 8 (device: string overflow)"))
        #expect(try judge(device, "wild.Sensor", [0x12, 9, 0x61]) == .bothRefuse, "cut short: both refuse")
        #expect(try judge(device, "wild.Sensor", [0x0a, 2, 0x68, 0x69])
                == .explainedByOption("key: filled (fixed_length (max_size = 3)); triple: filled (fixed_count (max_count = 2))"),
                "the device writes its fixed-size fields whether or not they were sent")
    }

    @Test func whatTheFacadesRefuseInsideAFieldTheDeviceDropsIsExplainedAndNothingElse() throws {
        let device = try BuiltDevice(protoDirectory: root + "/Tests/Schemas/options-wildcards")
        defer { device.remove() }
        // wild.Sensor.note is FT_CALLBACK on the device (never parsed); invalid UTF-8 there is refused by protobuf.
        let badNote: [UInt8] = [0x0a, 1, 0x61, 0x52, 2, 0xc3, 0x28]
        guard case .explainedByOption(let why) = try judge(device, "wild.Sensor", badNote) else {
            Issue.record("invalid UTF-8 in a field the device drops: \(try judge(device, "wild.Sensor", badNote))"); return
        }
        #expect(why == "the facades refuse what is inside fields the device drops")
        // The same bytes in a field the device keeps: the device accepts them (nanopb does not
        // validate UTF-8), protobuf refuses, and no option explains the difference.
        let badName: [UInt8] = [0x0a, 2, 0xc3, 0x28]
        #expect(try judge(device, "wild.Sensor", badName) == .failure("the device accepts it; the facades refuse it"))
    }

    @Test func aDeviceThatChangesWhatItAcceptedIsAFailure() throws {
        let device = try BuiltDevice(protoDirectory: root + "/Tests/Schemas/options-wildcards")
        defer { device.remove() }
        let reading: [UInt8] = [0x08, 0x05]  // wild.Reading.at = 5
        #expect(try judge(device, "wild.Reading", reading) == .same)
        let verdict = try judge(device, "wild.Reading", reading, answer: .accepted([0x08, 0x06]))
        guard case .failure(let what) = verdict else { Issue.record("a changed value passed: \(verdict)"); return }
        #expect(what.hasPrefix("both accept it and mean different things: at: mismatch"), "\(what)")
        #expect(try judge(device, "wild.Reading", reading, answer: .crashed(11)) == .failure("the device build crashed (signal 11)"))
    }
}
