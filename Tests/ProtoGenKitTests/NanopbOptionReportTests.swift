// The whole report scripts/proto-options.py gives for each option schema under Tests/Schemas: every
// element an option reaches, with its kind, value and sources, in the order nanopb walks the
// schema, and nothing else. The generation suites check single lines of it; a line too many
// (an option reported on the file that acts on fields, the synthetic oneof of a proto3 `optional`),
// a line missing (an enum nested in a message) or a wrong source or kind only shows against the
// whole list. Each expected line was derived from the schema and its `.options` by nanopb's rules:
// patterns (fnmatch, `*` crosses dots) merge in file order, then inline annotations; file ->
// message -> field / oneof / nested enum inheritance; an option is reported where it acts.

import Testing
import TestSupport
@testable import ProtoGenKit

@Suite struct NanopbOptionReportTests {
    /// The report for Tests/Schemas/`shape`, one line a setting: `kind element option = value <sources>`,
    /// with ` unread` after a setting nanopb 0.4.7 cannot read.
    static func report(_ shape: String) throws -> [String] {
        let tools = try GenerationTools.inTree(repositoryRoot)
        let scratch = try TemporaryFolder("option-report")
        let (schema, set) = try compileTestSchema(shape, into: scratch.path)
        let sources = try SchemaGeneration.optionSources(optionsFile: nil, protoDirectory: schema, protoPaths: [])
        return try SchemaGeneration.nanopbOptions(descriptorSet: set, protoDirectory: schema, optionArguments: sources, tools: tools)
            .map { "\($0.kind.rawValue) \($0.element) \($0.option) = \($0.value) <\($0.source)>" + ($0.unread == nil ? "" : " unread") }
    }

    @Test func nestedElementsInheritedOptionsAndTheSyntheticOneofAreReportedWhereTheyAct() throws {
        #expect(try Self.report("options-nesting") == [
            "oneof nest.Outer.choice no_unions = true <nesting.options:3>",
            "oneof nest.Outer.spare type = FT_IGNORE <nesting.options:7>",
            "oneof nest.Outer.spare no_unions = true <nesting.options:3>",
            "field nest.Outer.inner max_size = 30 <(nanopb) annotation>",
            "field nest.Outer.count max_size = 30 <(nanopb) annotation>",
            "field nest.Outer.count int_size = IS_16 <nesting.options:5>",
            "field nest.Outer.number max_size = 30 <(nanopb) annotation>",
            "field nest.Outer.word max_size = 30 <(nanopb) annotation>",
            #"field nest.Outer.word callback_datatype = "word_cb_t" <nesting.options:6>"#,
            "field nest.Outer.flag max_size = 30 <(nanopb) annotation>",
            "field nest.Outer.Inner.tag max_size = 8 <(nanopb) annotation, nesting.options:4>",
            "field nest.Outer.Inner.level max_size = 30 <(nanopb) annotation>",
            "enum nest.Outer.Inner.Level packed_enum = true <nesting.options:1>",
            "enum nest.Outer.Phase enum_to_string = true <nesting.options:2>",
        ])
    }

    @Test func aFileThatCannotSeeNanopbProtoHasNoAnnotationsToReport() throws {
        // Its own option numbered 1010 reads, as nanopb's options, like a max_size on an enum
        // value; the file imports no nanopb.proto, so it is not nanopb's and is not read.
        #expect(try Self.report("options-unrelated-1010") == [])
    }

    @Test func annotationsAtEveryLevelAreReportedOnTheElementTheyAreSetOn() throws {
        #expect(try Self.report("options-repeated") == [
            #"file repeated_options.proto include = "<stdint.h>", "<string.h>" <(nanopb) annotation>"#,
            "message repeated.opts.Beacon msgid = 7 <(nanopb) annotation>",
            "field repeated.opts.Beacon.name max_size = 12 <(nanopb) annotation>",
            "field repeated.opts.Beacon.hops max_count = 4 <(nanopb) annotation>",
            "field repeated.opts.Beacon.power int_size = IS_8 <(nanopb) annotation>",
            "field repeated.opts.Beacon.raw max_size = 8 <(nanopb) annotation>",
            "field repeated.opts.Beacon.text max_length = 5 <(nanopb) annotation>",
            "enum repeated.opts.Mode long_names = false <(nanopb) annotation>",
            "enum repeated.opts.Mode packed_enum = true <(nanopb) annotation>",
        ])
    }

    @Test func everyPatternLineThatMatchesAnElementIsNamedAsItsSource() throws {
        let report = try Self.report("options-wildcards")
        let staticType = { (field: String) in "field wild.\(field) type = FT_STATIC <wildcards.options:2>" }
        #expect(report == [
            staticType("Reading.at"), staticType("Reading.delta"),
            "oneof wild.Sensor.value anonymous_oneof = true <wildcards.options:14>",
            "field wild.Sensor.name max_size = 16 <wildcards.options:3>", staticType("Sensor.name"),
            "field wild.Sensor.label max_length = 8 <wildcards.options:4>", staticType("Sensor.label"),
            "field wild.Sensor.blob max_size = 6 <wildcards.options:5>", staticType("Sensor.blob"),
            "field wild.Sensor.key max_size = 3 <wildcards.options:6>", staticType("Sensor.key"),
            "field wild.Sensor.key fixed_length = true <wildcards.options:6>",
            "field wild.Sensor.readings max_count = 5 <wildcards.options:7>", staticType("Sensor.readings"),
            "field wild.Sensor.triple max_count = 2 <wildcards.options:8>", staticType("Sensor.triple"),
            "field wild.Sensor.triple fixed_count = true <wildcards.options:8>",
            "field wild.Sensor.small int_size = IS_8 <wildcards.options:9>", staticType("Sensor.small"),
            "field wild.Sensor.medium int_size = IS_16 <wildcards.options:10>", staticType("Sensor.medium"),
            "field wild.Sensor.offset int_size = IS_16 <wildcards.options:11>", staticType("Sensor.offset"),
            "field wild.Sensor.note type = FT_CALLBACK <wildcards.options:2, wildcards.options:12>",
            "field wild.Sensor.history max_count = 2 <wildcards.options:13>", staticType("Sensor.history"),
            staticType("Sensor.level"),
            "field wild.Sensor.text max_size = 10 <wildcards.options:15>", staticType("Sensor.text"),
            "field wild.Sensor.ignored type = FT_IGNORE <wildcards.options:2, wildcards.options:16>",
            "field wild.Station.name max_size = 16 <wildcards.options:3>", staticType("Station.name"),
            "field wild.Station.sensors max_count = 2 <wildcards.options:17>", staticType("Station.sensors"),
            "field wild.Station.tags max_size = 5 <wildcards.options:18>",
            "field wild.Station.tags max_count = 3 <wildcards.options:18>", staticType("Station.tags"),
        ])
    }

    @Test func optionsANewerNanopbDeclaresAreReportedUnreadBesideTheOnesItReads() throws {
        #expect(try Self.report("options-newer-nanopb") == [
            "pattern telemetry.Status.detail sort_fields = true <telemetry.options:2> unread",
            "file telemetry.proto discard_unused_automatic_types = true <(nanopb) annotation> unread",
            #"file telemetry.proto include = "<stdint.h>", "<stddef.h>" <(nanopb) annotation>"#,
            "oneof telemetry.Frame.body max_size = 4 <(nanopb) annotation> unread",
            "field telemetry.Frame.station preferred_alignment = 4 <(nanopb) annotation> unread",
            "field telemetry.Frame.station max_size = 10 <(nanopb) annotation>",
            "field telemetry.Frame.samples max_count = 6 <(nanopb) annotation>",
            "field telemetry.Frame.sequence int_size = IS_16 <(nanopb) annotation>",
            "field telemetry.Frame.packed max_size = 16 <(nanopb) annotation>",
            "field telemetry.Frame.words max_length = 12 <(nanopb) annotation>",
            "field telemetry.Status.detail max_size = 20 <telemetry.options:2>",
        ])
    }
}
