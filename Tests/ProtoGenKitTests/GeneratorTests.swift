// protogen's facade generator: names, namespaces, refusals, pruning, determinism, the builder
// invariant, and that the committed bundled facades are what the generator makes today.

import Foundation
import OracleCheck
import ProofSupport
import Testing
@testable import ProtoGenKit
import ProtoSchema
import TestSupport

/// Runs the real protoc on test-written sources and loads the descriptor set.
func compileSchema(_ files: [String: String]) throws -> SchemaSet { try InlineSchema.compile(files) }

func run(_ tool: String, _ arguments: [String], in dir: URL) throws {
    let result = try ChildProcess.run(tool, arguments, in: dir.path)
    if result.status != 0 { throw GeneratorError.io(path: tool, reason: "exit \(result.status): \(result.stderrText)") }
}

func generate(_ files: [String: String], selection: TypeSelection = .all) throws -> String {
    try ProtoGen.facades(schema: compileSchema(files), cModule: "CMod", selection: selection)
        .map(\.contents).joined()
}

@Suite struct GeneratorTests {
    // proto2: proto3 itself rejects fields whose JSON names collide (foo_bar / fooBar).
    static let naming = """
        syntax = "proto2";
        package my_pkg.sub2;
        message Outer {
          message Inner { optional int32 x = 1; }
          enum Kind { KIND_UNSPECIFIED = 0; KIND_FAST = 1; SLOW = 2; }
          optional int32 foo_bar = 1;
          optional int32 fooBar = 2;
          optional string class = 3;
          optional string self = 4;
          optional int32 x = 5;
          optional int32 has_x = 6;
          optional string user_url_id = 7;
          optional int32 FIELD_NAME11 = 8;
          optional int32 field0name5 = 9;
          optional int32 field_0_name6 = 10;
          optional string description = 11;
          oneof choice { Inner inner = 12; Kind kind = 13; }
          map<string, Inner> by_name = 14;
        }
        """

    @Test func namesFollowProtocGenSwiftAndResolveCollisionsDeterministically() throws {
        let text = try generate(["a.proto": Self.naming])
        #expect(text.contains("public typealias MyPkg_Sub2_Outer = NanopbMsg<CMod.my_pkg_sub2_Outer>"))
        #expect(text.contains("public typealias MyPkg_Sub2_Outer_Inner = NanopbMsg<CMod.my_pkg_sub2_Outer_Inner>"))
        #expect(text.contains("public struct MyPkg_Sub2_Outer_Kind: RawRepresentable, Hashable, Sendable"))
        #expect(text.contains("public static let unspecified = MyPkg_Sub2_Outer_Kind(rawValue: 0)"))
        #expect(text.contains("public static let fast = MyPkg_Sub2_Outer_Kind(rawValue: 1)"))
        #expect(text.contains("public static let slow = MyPkg_Sub2_Outer_Kind(rawValue: 2)"))
        #expect(text.contains("public var fooBar: Int32"))
        #expect(text.contains("public var fooBar_2: Int32"))
        #expect(text.contains("public var `class`: String { NanopbField.string(_pointer.pointee.class_, \"\") }"),
                "C++ keyword: the C member takes `_` (Naming.cIdentifier), the Swift property keeps the name")
        #expect(text.contains("public var self_p: String { NanopbField.string(_pointer.pointee.self_, \"\") }"))
        #expect(text.contains("public var hasX: Int32"), "the field has_x keeps its name")
        #expect(text.contains("public var hasX_5: Bool"), "x's presence accessor yields")
        #expect(text.contains("public var userURLID: String"))
        #expect(text.contains("public var fieldName11: Int32"))
        #expect(text.contains("public var field0Name5: Int32"))
        #expect(text.contains("public var field0Name6: Int32"))
        #expect(text.contains("public var description_p: String"))
        #expect(text.contains("public enum MyPkg_Sub2_Outer_OneOf_Choice: Hashable, Sendable"))
        #expect(text.contains("public var choice: MyPkg_Sub2_Outer_OneOf_Choice?"))
        #expect(text.contains("public var byName: [String: MyPkg_Sub2_Outer_Inner]"))
        #expect(try generate(["a.proto": Self.naming]) == text, "output must be deterministic")
    }

    @Test func swiftPrefixOptionReplacesThePackagePrefix() throws {
        let text = try generate(["p.proto": "syntax = \"proto3\"; package a.b; option swift_prefix = \"XY\"; message M { int32 v = 1; }"])
        #expect(text.contains("public typealias XYM = NanopbMsg<CMod.a_b_M>"))
    }

    @Test func aMessageHoldingOnlyNestedTypesBecomesANamespace() throws {
        let text = try generate(["n.proto": """
            syntax = "proto3"; package n;
            message Holder { message Inner { int32 v = 1; } enum Mode { MODE_A = 0; } }
            message Empty {}
            message User { Empty e = 1; }
            """])
        #expect(text.contains("public enum N_Holder {"))
        #expect(text.contains("public typealias Inner = N_Holder_Inner"))
        #expect(text.contains("public typealias Mode = N_Holder_Mode"))
        #expect(text.contains("public typealias N_Holder_Inner = NanopbMsg<CMod.n_Holder_Inner>"))
        #expect(!text.contains("NanopbMsg<CMod.n_Holder>"))
        #expect(text.contains("public typealias N_Empty = NanopbMsg<CMod.n_Empty>"), "a field-less message used as a field type stays a message")
    }

    @Test func groupsAreRefusedNamingTheFileAndField() {
        #expect(throws: GeneratorError.unsupported(file: "g.proto", element: "g.M.result",
                                                   reason: "groups are not supported by nanopb's pointer fields or the facades")) {
            try generate(["g.proto": "syntax = \"proto2\"; package g; message M { optional group Result = 1 { optional int32 v = 2; } }"])
        }
    }

    @Test func extensionsAreSkippedAndListedWhileTheRestOfTheSchemaIsGenerated() throws {
        let files = ["e.proto": """
            syntax = "proto2"; package e;
            message M { optional int32 v = 1; extensions 10 to 20; extend M { optional string inner = 11; } }
            extend M { optional int32 x = 10; }
            """]
        let plan = try FacadePlan(schema: compileSchema(files), selection: .all)
        #expect(plan.skippedExtensions.map(FacadePlan.extensionLabel) == [
            "e.proto: extension e.x (field 10 of e.M)", "e.proto: extension e.M.inner (field 11 of e.M)"])
        #expect(plan.nanopbOptionsFile.contains("e.M.extensions type:FT_IGNORE"))
        let text = try generate(files)
        #expect(text.contains("public typealias E_M = NanopbMsg<CMod.e_M>"))
        #expect(text.contains("public var v: Int32"))
        #expect(!text.contains("inner"), "no accessor for a skipped extension")
    }

    @Test func aFileWithoutAPackageReferencesItsCStructsThroughTheCModule() throws {
        // Without a package the C struct and the facade share a name; an unqualified
        // `NanopbMsg<Plain>` inside the facade module would be the typealias itself.
        let text = try generate(["p.proto": "syntax = \"proto3\"; message Plain { int32 v = 1; message Inner { int32 w = 1; } }"])
        #expect(text.contains("extension CMod.Plain: NanopbRuntime.NanopbStorage {"))
        #expect(text.contains("public typealias Plain = NanopbMsg<CMod.Plain>"))
        #expect(text.contains("public typealias Plain_Inner = NanopbMsg<CMod.Plain_Inner>"))
        #expect(text.contains("NanopbBox(emptyOf: CMod.Plain.self)"))
        #expect(!text.contains("NanopbMsg<Plain"))
    }

    @Test func aFacadeTypeNamedLikeTheCModuleIsRefused() {
        #expect(throws: GeneratorError.nameCollision(name: "CMod", first: "the C module", second: "CMod")) {
            try generate(["m.proto": "syntax = \"proto3\"; message CMod { int32 v = 1; }"])
        }
    }

    @Test func twoTypesThatFlattenToOneSwiftNameAreRefusedNamingBoth() {
        // `A_B` and `A.B` both flatten to `Nc_A_B`; so would an enum beside a message.
        for proto in ["message A_B { int32 v = 1; } message A { message B { int32 w = 1; } }",
                      "message A_B { int32 v = 1; } message A { enum B { B_ZERO = 0; } }"] {
            do {
                let text = try generate(["nc.proto": "syntax = \"proto3\"; package nc; " + proto])
                Issue.record("generated despite the collision: \(text.count) characters")
            } catch let GeneratorError.nameCollision(name, first, second) {
                #expect(name == "Nc_A_B")
                #expect(Set([first, second]) == ["nc.A_B", "nc.A.B"])
            } catch {
                Issue.record("wrong error: \(error)")
            }
        }
    }

    @Test func aBytesDefaultAsProtocEscapesItReadsBackByteForByte() throws {
        // protoc writes a bytes default C-escaped, octal escapes always three digits: byte 1 then
        // "1" is `\0011`, which must not be read as the octal 0011.
        let proto = #"syntax = "proto2"; package bd; message M { optional bytes b = 1 [default = "\0011\377x\n\\"]; }"#
        let field = try #require(compileSchema(["bd.proto": proto]).message("bd.M")?.fields.first)
        let text = try #require(field.defaultValue)
        #expect(FieldDefaults.unescapeCBytes(text) == [1, 0x31, 0xff, 0x78, 10, 0x5c], "protoc wrote \(text)")
    }

    @Test func enumCasesThatCollideAfterPrefixStrippingTakeTheirNumberNegativesSpelledM() throws {
        // proto2 (proto3 refuses such names): MODE_FAST and FAST are both `fast` once the prefix
        // is stripped; the later one takes its number (`_m1` for -1: `-` cannot be in a Swift name).
        let text = try generate(["ec.proto": "syntax = \"proto2\"; package ec; enum Mode { MODE_FAST = 0; FAST = -1; MODE_SLOW = 2; SLOW = 3; }"])
        for line in ["public static let fast = Ec_Mode(rawValue: 0)", "public static let fast_m1 = Ec_Mode(rawValue: -1)",
                     "public static let slow = Ec_Mode(rawValue: 2)", "public static let slow_3 = Ec_Mode(rawValue: 3)"] {
            #expect(text.contains(line), "\(line)")
        }
    }

    @Test func aPackagelessTypeNamedLikeASwiftStandardTypeTakesAnUnderscoreInC() throws {
        // The facade module imports the C module: a C type `String` would shadow Swift.String in
        // every facade of the schema. C gets `String_`; the facade is `StringMessage` as ever.
        let files = ["s.proto": "syntax = \"proto3\"; message String { string text = 1; } enum Bool { BOOL_A = 0; } message Plain { String s = 1; Bool b = 2; }"]
        let plan = try FacadePlan(schema: compileSchema(files), selection: .all)
        #expect(plan.cRenames.filter { $0.kind == .type }.map { "\($0.protoName)->\($0.cName)" } == ["Bool->Bool_", "String->String_"])
        #expect(plan.cTypeName("String") == "String_" && plan.cTypeName("Plain") == "Plain")
        let text = try generate(files)
        #expect(text.contains("public typealias StringMessage = NanopbMsg<CMod.String_>"))
        #expect(text.contains("public struct BoolEnum: RawRepresentable, Hashable, Sendable"))
        #expect(text.contains("public var text: String"))
    }

    @Test func aPackagedTypeNamedLikeAReservedWordKeepsItsNameInC() throws {
        // nanopb prefixes a packaged type's C name with its package (`p_String`, `p_switch`), so
        // no C type name is the bare reserved word and nothing is renamed.
        let files = ["p.proto": "syntax = \"proto3\"; package p; message String { string text = 1; } enum switch { SWITCH_A = 0; } enum Bool { BOOL_A = 0; }"]
        let plan = try FacadePlan(schema: compileSchema(files), selection: .all)
        #expect(plan.cRenames.filter { $0.kind == .type }.isEmpty, "\(plan.cRenames)")
        #expect(plan.cTypeName("p.String") == "p_String" && plan.cTypeName("p.switch") == "p_switch")
    }

    @Test func aSkippedOptionSaysWhetherHonouringOptionsWouldApplyIt() throws {
        let set = try compileSchema(["so.proto": "syntax = \"proto3\"; package so; message N { uint32 small = 1; }"])
        let field = try #require(set.message("so.N")?.fields.first)
        func decision(_ option: String, _ value: String, _ mode: NanopbOptionsMode) -> NanopbOptionDecision {
            let setting = NanopbOptionSetting(file: "so.proto", element: "so.N.small", kind: .field, option: option, value: value, source: "so.options")
            return NanopbOptionPolicy.decide(setting, field: field, mode: mode)
        }
        // int_size can be honoured: skipping it says how to apply it.
        guard case let .skipped(narrowing) = decision("int_size", "IS_8", .skip) else {
            Issue.record("int_size not skipped by default"); return
        }
        #expect(narrowing.contains("--honour-options"), "\(narrowing)")
        #expect(decision("int_size", "IS_8", .honour) == .honoured)
        // FT_STATIC cannot be: skipping it says so, and does not suggest honouring it.
        guard case let .skipped(storage) = decision("type", "FT_STATIC", .skip) else {
            Issue.record("FT_STATIC not skipped by default"); return
        }
        #expect(storage.contains("not supported by the facades") && !storage.contains("--honour-options"), "\(storage)")
        guard case .refused = decision("type", "FT_STATIC", .honour) else { Issue.record("FT_STATIC not refused"); return }
    }

    @Test func honouredIntSizeNarrowsTheFacadeFieldAndOtherOptionsOnTheFieldDoNotLeakIn() throws {
        let proto = """
            syntax = "proto3";
            package hn;
            message N { uint32 small = 1; int64 wide = 2; uint32 plain = 3; string gone = 4; }
            """
        func setting(_ element: String, _ option: String, _ value: String) -> NanopbOptionSetting {
            NanopbOptionSetting(file: "hn.proto", element: element, kind: .field, option: option, value: value, source: "hn.options")
        }
        // Two options on one field: only int_size sizes it (max_size is skipped, without effect).
        let options = [setting("hn.N.small", "max_size", "4"), setting("hn.N.small", "int_size", "IS_8"),
                       setting("hn.N.wide", "int_size", "IS_16"), setting("hn.N.gone", "type", "FT_IGNORE")]
        let text = try ProtoGen.facades(schema: compileSchema(["hn.proto": proto]), cModule: "CMod",
                                        inputs: PlanInputs(nanopbOptions: options, optionsMode: .honour)).map(\.contents).joined()
        #expect(text.contains("public var small: UInt8"), "\(text)")
        #expect(text.contains("public var wide: Int16"))
        #expect(text.contains("public var plain: UInt32"))
        #expect(!text.contains("gone"), "an FT_IGNORE field has no facade property")
        let skipped = try ProtoGen.facades(schema: compileSchema(["hn.proto": proto]), cModule: "CMod",
                                           inputs: PlanInputs(nanopbOptions: options, optionsMode: .skip)).map(\.contents).joined()
        #expect(skipped.contains("public var small: UInt32") && skipped.contains("public var wide: Int64"))
        #expect(skipped.contains("public var gone: String"))
    }

    @Test func anHonouredFTIgnoreOnAOneofDropsEveryMemberAndNoOtherField() throws {
        let proto = """
            syntax = "proto3";
            package ho;
            message O { uint32 kept = 1; oneof choice { string alpha = 2; uint32 beta = 3; } uint32 after = 4; }
            """
        let options = [NanopbOptionSetting(file: "ho.proto", element: "ho.O.choice", kind: .oneof, option: "type",
                                           value: "FT_IGNORE", source: "ho.options")]
        let text = try ProtoGen.facades(schema: compileSchema(["ho.proto": proto]), cModule: "CMod",
                                        inputs: PlanInputs(nanopbOptions: options, optionsMode: .honour)).map(\.contents).joined()
        #expect(text.contains("public var kept: UInt32") && text.contains("public var after: UInt32"), "\(text)")
        #expect(!text.contains("alpha") && !text.contains("beta"), "the oneof's members have no facade: \(text)")
    }

    @Test func anHonouredFTIgnoreOneofTakesNoNameFromTheMembersLeft() throws {
        // The ignored oneof `has_kept` has no facade member, so it must not push `kept`'s presence
        // accessor off its plain name.
        let proto = """
            syntax = "proto3";
            package hk;
            message K { optional uint32 kept = 1; oneof has_kept { string alpha = 2; } }
            """
        let options = [NanopbOptionSetting(file: "hk.proto", element: "hk.K.has_kept", kind: .oneof, option: "type",
                                           value: "FT_IGNORE", source: "hk.options")]
        let text = try ProtoGen.facades(schema: compileSchema(["hk.proto": proto]), cModule: "CMod",
                                        inputs: PlanInputs(nanopbOptions: options, optionsMode: .honour)).map(\.contents).joined()
        #expect(text.contains("public var hasKept: Bool") && !text.contains("hasKept_"), "\(text)")
    }

    @Test func theSourceScannerKeepsChainsUpToTheLastCharacterOfAFile() {
        // A file that ends inside an identifier or a chain (no newline after it) still spells it.
        var identifiers: Set<String> = []
        SourceScanner.scan("let a: Q_Holder.Inner", into: &identifiers)
        #expect(identifiers.contains("Q_Holder.Inner"), "\(identifiers)")
        var trailingDot: Set<String> = []
        SourceScanner.scan("_ = Q_Root.", into: &trailingDot)
        #expect(trailingDot.contains("Q_Root") && !trailingDot.contains("Q_Root."), "\(trailingDot)")
        var words: Set<String> = []
        SourceScanner.scan("a.b(c) d_1", into: &words)
        #expect(words == ["a.b", "c", "d_1"], "\(words)")
    }

    @Test func pruningKeepsSpelledTypesAndEverythingTheyNeed() throws {
        let proto = """
            syntax = "proto3"; package q;
            enum Unused { UNUSED_A = 0; }
            enum Color { COLOR_A = 0; }
            message Leaf { Color c = 1; }
            message Root { map<string, Leaf> leaves = 1; }
            message Other { int32 v = 1; }
            message Holder { message Inner { int32 v = 1; } }
            """
        var identifiers: Set<String> = []
        SourceScanner.scan("let r = Q_Root.with { _ in }; let i: Q_Holder.Inner? = nil", into: &identifiers)
        let text = try generate(["q.proto": proto], selection: .spelled(identifiers))
        #expect(text.contains("typealias Q_Root ="))
        #expect(text.contains("typealias Q_Leaf ="))
        #expect(text.contains("struct Q_Color:"))
        #expect(text.contains("typealias Q_Holder_Inner ="))
        #expect(text.contains("public enum Q_Holder {"))
        #expect(!text.contains("Q_Other") && !text.contains("Q_Unused"))
    }

    @Test func aWritingMemberOutsideABuilderDeclarationFailsTheInvariant() {
        let setter = FacadeMember.property("v", type: "Int", read: ["1"], write: ["_ = newValue"])
        let bad = FacadeFileModel(name: "x.pb.swift", prologue: [], declarations: [
            FacadeDeclaration(kind: .messageExtension, header: "extension A {", members: [setter])])
        #expect(throws: GeneratorError.invariant(file: "x.pb.swift", declaration: "extension A { v",
                                                 reason: "a member that writes storage outside an `extension X.Builder` declaration")) {
            try BuilderInvariant.verify(bad)
        }
        let clear = FacadeMember.mutatingFunc("clearV", body: "")
        let alsoBad = FacadeFileModel(name: "y.pb.swift", prologue: [], declarations: [
            FacadeDeclaration(kind: .openEnum, header: "public struct E {", members: [clear])])
        #expect(throws: GeneratorError.self) { try BuilderInvariant.verify(alsoBad) }
        let good = FacadeFileModel(name: "z.pb.swift", prologue: [], declarations: [
            FacadeDeclaration(kind: .builderExtension, header: "extension A.Builder {", members: [setter, clear])])
        #expect(throws: Never.self) { try BuilderInvariant.verify(good) }
    }

    @Test func theInvariantReadsTheModelNotTheText() throws {
        // A type or field whose name ends in "set" once tripped a text scan (`preset {`).
        let text = try generate(["s.proto": """
            syntax = "proto3"; package s;
            message Preset { int32 mutating = 1; string set = 2; }
            message User { Preset preset = 1; repeated Preset nonmutating = 2; }
            """])
        #expect(text.contains("public typealias S_Preset = NanopbMsg<CMod.s_Preset>"))
        #expect(text.contains("public var set: String"))
    }

    @Test func commandLineRequiresExactlyOneSelectionModeAndTakesPlanInputs() throws {
        let base = ["facades", "--descriptor-set", "a", "--c-module", "C", "--swift-out", "o"]
        #expect(usageError(base).contains("exactly one of --all-types and --prune-sources"))
        #expect(usageError(base + ["--all-types", "--bogus"]).contains("--bogus"), "a wrong flag names itself")
        #expect(usageError(base + ["--all-types", "--external-facade-module", "W"]).contains("go together"))
        let command = try #require(try ProtoGen.parseAsRoot(base + ["--all-types", "--roots", "x.proto", "y.proto", "--honour-options"])
                                   as? FacadesCommand)
        let inputs = try command.planInputs()
        #expect(inputs.roots == ["x.proto", "y.proto"])
        #expect(inputs.optionsMode == .honour)
        #expect(inputs.selection == .all)
    }

    @Test func everyCommandAndSubcommandAnswersHelpWithStatusZeroAndAWrongFlagWithTwo() throws {
        for arguments in [["--help"], ["facades", "--help"], ["plan", "--help"], ["help", "facades"]] {
            #expect(ProtoGen.main(arguments) == 0, "\(arguments)")
        }
        for arguments in [["facades", "--bogus"], ["plan", "--descriptor-set"], ["generate-everything"]] {
            #expect(ProtoGen.main(arguments) == 2, "\(arguments)")
        }
        #expect(ProtoGen.helpMessage(for: FacadesCommand.self).contains("--prune-sources"))
    }

    @Test func aRefusedGenerationExitsOneAndSaysWhyOnStandardError() {
        var reported: [String] = []
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-schema-\(UUID().uuidString)").path
        let status = ProtoGen.main(["generate", "--proto-dir", missing, "--c-out", missing + "/C", "--c-only"]) { reported.append($0) }
        #expect(status == 1)
        #expect(reported.count == 1 && reported[0].hasPrefix("protogen: ") && reported[0].contains(missing), "\(reported)")
    }

    /// The message a usage error prints (empty when `arguments` parse).
    private func usageError(_ arguments: [String]) -> String {
        do { _ = try ProtoGen.parseAsRoot(arguments); return "" } catch {
            #expect(ProtoGen.exitCode(for: error) == .validationFailure, "\(arguments)")
            return ProtoGen.fullMessage(for: error)
        }
    }

    @Test func theCommandPrunesWritesAndRemovesOnlyItsOwnStaleFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("protogen-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        for sub in ["protos/z", "src", "out"] {
            try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try "syntax = \"proto3\"; package z; message Used { int32 v = 1; } message Unused { int32 v = 1; }"
            .write(to: dir.appendingPathComponent("protos/z/z.proto"), atomically: true, encoding: .utf8)
        try "let u = Z_Used()".write(to: dir.appendingPathComponent("src/App.swift"), atomically: true, encoding: .utf8)
        try "// DO NOT EDIT. Generated by protogen from old.proto.\n"
            .write(to: dir.appendingPathComponent("out/old.pb.swift"), atomically: true, encoding: .utf8)
        try "// hand-written\n".write(to: dir.appendingPathComponent("out/mine.pb.swift"), atomically: true, encoding: .utf8)
        let set = dir.appendingPathComponent("set.pb").path
        try run("/usr/bin/protoc", ["-I.", "--include_imports", "--descriptor_set_out=\(set)", "z/z.proto"],
                in: dir.appendingPathComponent("protos"))
        let out = dir.appendingPathComponent("out").path
        let arguments = ["facades", "--descriptor-set", set, "--c-module", "ZC", "--swift-out", out,
                         "--prune-sources", dir.appendingPathComponent("src").path]
        let report = try ProtoGen.run(arguments)
        #expect(report == ["removed \(out)/old.pb.swift", "wrote \(out)/z_z.pb.swift"])
        let text = try String(contentsOfFile: out + "/z_z.pb.swift", encoding: .utf8)
        #expect(text.hasPrefix("// DO NOT EDIT. Generated by protogen from z/z.proto.\n// Regenerate with: make proto\n"))
        #expect(text.contains("Z_Used") && !text.contains("Z_Unused"))
        #expect(fm.fileExists(atPath: out + "/mine.pb.swift"), "files without protogen's header are not protogen's")
        #expect(try ProtoGen.run(arguments) == [], "an unchanged schema rewrites nothing")
    }

    @Test func committedBundledFacadesMatchTheGenerator() async throws {
        let root = URL(fileURLWithPath: repositoryRoot)
        let generated = try ProtoGen.facades(schema: try await BundledSchema.schemas(), cModule: "BundledProtoC", selection: .all)
        for file in generated {
            let committed = try String(contentsOf: root.appendingPathComponent("Sources/Generated/BundledProto/\(file.name)"), encoding: .utf8)
            #expect(committed == file.contents, "Sources/Generated/BundledProto/\(file.name) is stale: run `make proto`")
        }
    }
}
