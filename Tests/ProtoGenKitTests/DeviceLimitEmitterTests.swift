// `--limits-from-options`: the facades carry every limit nanopb's own layout of the schema gives
// the device (one table per message, in field order) and a walk that checks each limited field,
// guards oneof members by their `which_`, and descends only into submessages that carry a limit.
// What the walk answers on real messages is proved by the device party of `wireproof prove`
// (DeviceProof compares it with the layout on every message it sends; `make check-foreign`).

import Foundation
import Testing
import TestSupport

/// The facade text of Tests/Schemas/`name` (one .proto), generated with `extra` flags.
private func facadeText(_ protoDirectory: String, _ extra: [String]) throws -> (run: GenerationRun, text: String) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-limits-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try runGeneration(protoDirectory: protoDirectory,
                                ["--c-out", dir.appendingPathComponent("LimC").path, "--swift-out", dir.appendingPathComponent("Lim").path] + extra)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("Lim").path)) ?? []
    let text = try files.sorted().map { try String(contentsOf: dir.appendingPathComponent("Lim/" + $0), encoding: .utf8) }.joined()
    return (run, text)
}

@Suite struct DeviceLimitEmitterTests {
    private let wildcards = repositoryRoot + "/Tests/Schemas/options-wildcards"

    @Test func everyLimitOfTheDeviceLayoutIsInTheMessagesTableWithTheOptionThatSetIt() throws {
        let (run, text) = try facadeText(wildcards, ["--limits-from-options"])
        #expect(run.status == 0, "\(run.said)")
        for entry in [
            #"NanopbDeviceLimit(field: "name", kind: .stringBytes(max: 15), option: "max_size = 16")"#,
            #"NanopbDeviceLimit(field: "label", kind: .stringBytes(max: 8), option: "max_length = 8")"#,
            #"NanopbDeviceLimit(field: "blob", kind: .bytes(max: 6), option: "max_size = 6")"#,
            #"NanopbDeviceLimit(field: "key", kind: .fixedBytes(size: 3), option: "fixed_length (max_size = 3)")"#,
            #"NanopbDeviceLimit(field: "readings", kind: .count(max: 5), option: "max_count = 5")"#,
            #"NanopbDeviceLimit(field: "triple", kind: .fixedCount(count: 2), option: "fixed_count (max_count = 2)")"#,
            #"NanopbDeviceLimit(field: "small", kind: .integer(low: -128, high: 127), option: "int_size = IS_8")"#,
            #"NanopbDeviceLimit(field: "offset", kind: .integer(low: -32768, high: 32767), option: "int_size = IS_16")"#,
            #"NanopbDeviceLimit(field: "tags", kind: .count(max: 3), option: "max_count = 3")"#,
            #"NanopbDeviceLimit(field: "tags", kind: .stringBytes(max: 4), option: "max_size = 5")"#,
        ] {
            #expect(text.contains(entry), "missing: \(entry)")
        }
        // A field the device drops (FT_CALLBACK without a callback: `note`; FT_IGNORE: `ignored`) has no limit.
        #expect(!text.contains(#"field: "note""#) && !text.contains(#"field: "ignored""#))
    }

    @Test func theWalkGuardsOneofMembersAndDescendsOnlyWhereALimitIsBelow() throws {
        let (_, text) = try facadeText(wildcards, ["--limits-from-options"])
        #expect(text.contains("if message._pointer.pointee.which_value == 13 {"), "the oneof member `text` is checked only when it is the active one")
        #expect(text.contains("check.messages(message._views(message._pointer.pointee.sensors, message._pointer.pointee.sensors_count), path + \"sensors\")"),
                "Station.sensors holds Sensors, which carry limits")
        #expect(!text.contains("_views(message._pointer.pointee.history"), "Reading carries no limit: Sensor.history is counted, not walked")
        #expect(text.contains("extension LimC.wild_Reading: NanopbDeviceLimits.NanopbDeviceLimited {\n    public static let deviceLimits: [NanopbDeviceLimit] = []"),
                "every message answers deviceLimitViolations(), with nothing to check when it has no limit")
    }

    @Test func aSingularFieldIsCheckedAsOneValueAndARepeatedOneWithItsCount() throws {
        let (_, text) = try facadeText(wildcards, ["--limits-from-options"])
        for line in [
            #"check.string(deviceLimits[0], path + "name", message._pointer.pointee.name)"#,
            #"check.bytes(deviceLimits[2], path + "blob", message._pointer.pointee.blob)"#,
            #"check.integer(deviceLimits[6], path + "small", message._pointer.pointee.small)"#,
            #"check.strings(deviceLimits[3], path + "tags", message._pointer.pointee.tags, message._pointer.pointee.tags_count)"#,
        ] {
            #expect(text.contains("\n        " + line + "\n"), "missing: \(line)")
        }
    }

    @Test func aSubmessageWhoseOnlyOptionDropsAFieldCarriesNoLimitAndIsNotWalked() throws {
        let schema = try TemporaryFolder("dropped-only")
        try #"syntax = "proto3"; package drop; message Holder { repeated Leaf leaves = 1; } message Leaf { string note = 1; }"#
            .write(toFile: schema.path + "/drop.proto", atomically: true, encoding: .utf8)
        try "drop.Leaf.note type:FT_CALLBACK\ndrop.Holder.leaves max_count:4\n".write(toFile: schema.path + "/drop.options", atomically: true, encoding: .utf8)
        let (run, text) = try facadeText(schema.path, ["--limits-from-options"])
        #expect(run.status == 0, "\(run.said)")
        #expect(text.contains(#"NanopbDeviceLimit(field: "leaves", kind: .count(max: 4), option: "max_count = 4")"#), "\(text)")
        #expect(!text.contains("_views(message._pointer.pointee.leaves"), "Leaf's field is dropped, not limited: leaves are counted, not walked")
    }

    @Test func withoutTheFlagTheFacadesCarryNoLimitsAndDoNotImportTheirModule() throws {
        let (run, text) = try facadeText(wildcards, [])
        #expect(run.status == 0, "\(run.said)")
        #expect(!text.isEmpty && !text.contains("NanopbDeviceLimited"))
        #expect(!text.contains("import NanopbDeviceLimits"), "a program without limits never links their module")
        let (_, limited) = try facadeText(wildcards, ["--limits-from-options"])
        #expect(limited.contains("@_spi(NanopbFacade) import NanopbDeviceLimits\n"))
    }

    @Test func aSchemaWithoutOptionsSaysSoAndCarriesNoLimits() throws {
        let schema = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-nolimits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: schema) }
        try FileManager.default.createDirectory(at: schema, withIntermediateDirectories: true)
        try #"syntax = "proto3"; package plain; message Note { string text = 1; repeated int32 n = 2; }"#
            .write(to: schema.appendingPathComponent("plain.proto"), atomically: true, encoding: .utf8)
        let (run, text) = try facadeText(schema.path, ["--limits-from-options"])
        #expect(run.status == 0, "\(run.said)")
        #expect(run.said.contains("--limits-from-options: the schema sets no nanopb option; the facades carry no limits"), "\(run.said)")
        #expect(!text.isEmpty && !text.contains("NanopbDeviceLimited"))
    }
}
