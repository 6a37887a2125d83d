// Generation on the option schemas of Tests/Schemas (options-repeated: repeated file options and
// options at every level through annotations; options-wildcards: `.options` patterns; options-newer-
// nanopb: the schema's own nanopb.proto declaring option numbers 0.4.7 does not know; options-nesting:
// inheritance into nested messages, enums and oneofs): every option
// is read or refused with one line naming file, element, option and reason, never a traceback,
// with and without --honour-options.

import Foundation
import ProofSupport
import Testing
import TestSupport

private let shapes = ["options-repeated", "options-wildcards", "options-newer-nanopb", "options-nesting"]

/// One `protogen generate --c-only` run on Tests/Schemas/`name`.
private func generate(_ name: String, _ extra: [String] = []) throws -> GenerationRun {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-optionshape-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    return try runGeneration(protoDirectory: repositoryRoot + "/Tests/Schemas/" + name,
                             ["--c-only", "--c-out", dir.appendingPathComponent("OptC").path] + extra)
}

/// The lines of `text` that report one option: `file: element: option = value (from source): reason`.
private func optionLines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { $0.contains(" (from ") && $0.contains(" = ") }
}

@Suite(.serialized) struct NanopbOptionShapeTests {
    @Test(arguments: shapes)
    func everyOptionIsSkippedWithItsReasonAndGenerationGoesOn(_ shape: String) throws {
        let result = try generate(shape)
        let text = said(result)
        #expect(!text.contains("Traceback"), "\(shape): a traceback: \(text)")
        #expect(result.status == 0, "\(shape): \(text)")
        let lines = optionLines(text)
        #expect(!lines.isEmpty, "\(shape) sets options: each is listed")
        for line in lines {
            #expect(line.contains("nanopb option skipped: ") && line.contains(".proto: "), "one line names file and element: \(line)")
        }
    }

    @Test(arguments: shapes)
    func honouringRefusesWhatTheFacadesCannotMatchOneLineEachNeverATraceback(_ shape: String) throws {
        let result = try generate(shape, ["--honour-options"])
        let text = said(result)
        #expect(!text.contains("Traceback"), "\(shape): a traceback: \(text)")
        #expect(result.status != 0, "\(shape) sets options the facades cannot honour")
        let refusals = optionLines(text)
        #expect(!refusals.isEmpty, "\(shape): the refusal lists the options: \(text)")
        for line in refusals { #expect(line.hasPrefix("  ") && line.contains(".proto: "), "refusal line: \(line)") }
    }

    @Test func aRepeatedFileOptionIsReadWithEveryValue() throws {
        let text = said(try generate("options-repeated"))
        #expect(text.contains(#"repeated_options.proto: repeated_options.proto: include = "<stdint.h>", "<string.h>" (from (nanopb) annotation)"#), "\(text)")
        #expect(text.contains("repeated.opts.Mode: packed_enum = true"), "enum level: \(text)")
        #expect(text.contains("repeated.opts.Beacon: msgid = 7"), "message level: \(text)")
        #expect(text.contains("repeated.opts.Beacon.power: int_size = IS_8"), "field level: \(text)")
    }

    @Test func wildcardPatternsReachTheElementsTheyMatchAndNameTheirLine() throws {
        let text = said(try generate("options-wildcards"))
        for expected in ["wild.Station.name: max_size = 16 (from wildcards.options:3)",   // wild.*.name
                         "wild.Sensor.blob: max_size = 6 (from wildcards.options:5)",     // bl?b
                         "wild.Station.tags: max_count = 3 (from wildcards.options:18)",  // [t]ags
                         "wild.Sensor.readings: max_count = 5 (from wildcards.options:7)", // *.readings
                         "wild.Reading.at: type = FT_STATIC (from wildcards.options:2)"] { // *
            #expect(text.contains(expected), "\(expected) in: \(text)")
        }
    }

    @Test func optionsANewerNanopbDeclaresAreListedAsNotReadByNameAndNumber() throws {
        let text = said(try generate("options-newer-nanopb"))
        #expect(text.contains("telemetry.Frame.station: preferred_alignment = 4 (from (nanopb) annotation): not read: option number 41"), "\(text)")
        #expect(text.contains("telemetry.proto: telemetry.proto: discard_unused_automatic_types = true (from (nanopb) annotation): not read: option number 30"), "\(text)")
        #expect(text.contains("telemetry.Frame.body: max_size = 4 (from (nanopb) annotation): not read: nanopb 0.4.7 reads no (nanopb) annotation on a oneof"), "\(text)")
        #expect(text.contains("telemetry.Status.detail: sort_fields = true (from telemetry.options:2): not read: nanopb 0.4.7 has no option named sort_fields"), "\(text)")
        #expect(text.contains("telemetry.Status.detail: max_size = 20 (from telemetry.options:2)"), "the rest of that line is read: \(text)")
    }

    @Test func anUnreadableDescriptorSetIsOneLineNotATraceback() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-optionshape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let set = dir.appendingPathComponent("garbled.pb")
        try Data([0x0a, 0x05, 0x0a, 0x03]).write(to: set)  // a file entry cut short
        let result = try ChildProcess.run("/usr/bin/python3", [repositoryRoot + "/scripts/proto-options.py",
                                                               repositoryRoot + "/.deps/nanopb/generator", set.path, dir.path],
                                          in: repositoryRoot)
        let text = said(result)
        #expect(result.status == 1, "\(text)")
        #expect(!text.contains("Traceback") && text.split(separator: "\n").count == 1 && text.hasPrefix("proto-options: "), "\(text)")
    }

    @Test func aMalformedOptionsFileLineStopsGenerationNamingTheFileAndLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-optionshape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "syntax = \"proto3\";\npackage bad;\nmessage M { string name = 1; }\n".write(to: dir.appendingPathComponent("bad.proto"), atomically: true, encoding: .utf8)
        try "bad.M.name max_size:8\nbad.M.name\n".write(to: dir.appendingPathComponent("bad.options"), atomically: true, encoding: .utf8)
        let result = try runGeneration(protoDirectory: dir.path, ["--c-only", "--c-out", dir.appendingPathComponent("OptC").path])
        let text = said(result)
        #expect(result.status != 0, "\(text)")
        #expect(text.contains("bad.options:2: 'bad.M.name': no space between the name pattern and its options") && !text.contains("Traceback"), "\(text)")
    }

    @Test func missingArgumentsExitOneWithTheUsageLine() throws {
        let result = try ChildProcess.run("/usr/bin/python3", [repositoryRoot + "/scripts/proto-options.py", repositoryRoot + "/.deps/nanopb/generator"],
                                          in: repositoryRoot)
        let text = said(result)
        #expect(result.status == 1 && text.hasPrefix("proto-options: usage: proto-options.py NANOPB_GENERATOR_DIR FULL_SET.pb PROTO_DIR"), "\(text)")
    }

    @Test func anUnknownArgumentIsNamedAsUnknownAndAFlagWithoutValueAsWantingOne() throws {
        let script = [repositoryRoot + "/scripts/proto-options.py", repositoryRoot + "/.deps/nanopb/generator", "set.pb", "protos"]
        for (extra, message) in [(["--bogus"], "proto-options: unknown argument --bogus\n"),
                                 (["--search", "a", "--options"], "proto-options: --options wants a value\n")] {
            let result = try ChildProcess.run("/usr/bin/python3", script + extra, in: repositoryRoot)
            #expect(result.status == 1 && said(result) == message, "\(said(result))")
        }
    }
}
