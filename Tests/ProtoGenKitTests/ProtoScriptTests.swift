// `make proto` (`protogen generate`, run in process) end to end on schemas written here: every field comes out
// FT_POINTER whatever the schema's options file asks, an option that would change a field's storage
// is skipped with its reason or, when the user asks for options to be honoured, refused by name; and
// the ABI guard stops every generated and runtime translation unit built with a layout-changing macro.

import Foundation
import ProofSupport
import ProtoGenKit
import Testing
import TestSupport

/// One `protogen generate --c-only` run on `files` in a scratch folder; returns its result and the
/// generated header of `x.proto` (empty when generation failed).
private func generateC(_ files: [String: String], extra: [String] = []) throws -> (GenerationRun, String) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-protosh-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try writeSchema(files, into: dir)
    let out = dir.appendingPathComponent("OptC").path
    let result = try runProtoScript(in: dir, ["--c-only", "--c-out", out] + extra)
    let header = (try? String(contentsOfFile: out + "/include/x.pb.h", encoding: .utf8)) ?? ""
    return (result, header)
}

/// Writes `files` (name → text) into `dir`/protos.
private func writeSchema(_ files: [String: String], into dir: URL) throws {
    let protos = dir.appendingPathComponent("protos")
    try FileManager.default.createDirectory(at: protos, withIntermediateDirectories: true)
    for (name, text) in files { try text.write(to: protos.appendingPathComponent(name), atomically: true, encoding: .utf8) }
}

/// Runs `protogen generate --proto-dir dir/protos` with `arguments`.
private func runProtoScript(in dir: URL, _ arguments: [String], hint: Bool = true) throws -> GenerationRun {
    try runGeneration(protoDirectory: dir.appendingPathComponent("protos").path, arguments, hint: hint)
}

private let schema = """
    syntax = "proto3";
    message M { int32 a = 1; string s = 2; repeated uint32 r = 3; M child = 4; }
    """

@Suite(.serialized) struct ProtoScriptTests {
    @Test func withoutAnOptionsFileEveryFieldIsAPointer() throws {
        let (result, header) = try generateC(["x.proto": schema])
        #expect(result.status == 0, "\(result.stderrText)")
        for declaration in ["int32_t *a;", "char *s;", "pb_size_t r_count;", "uint32_t *r;", "struct _M *child;"] {
            #expect(header.contains(declaration), "x.pb.h declares \(declaration)")
        }
    }

    @Test func aSchemaWithoutTypesGetsACTargetWithNoFilesAndNanopbIsNotRun() throws {
        let (result, header) = try generateC(["x.proto": "syntax = \"proto3\";\npackage nothing;\n"])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.said.contains("(0 files: )"), "\(result.said)")
        #expect(header.isEmpty, "no x.pb.h")
    }

    @Test(arguments: ["type:FT_STATIC", "type:FT_CALLBACK"])
    func anOptionThatChangesAFieldsStorageIsSkippedAndSaidSo(_ option: String) throws {
        let (result, header) = try generateC(["x.proto": schema, "x.options": "M.a \(option)\nM.s \(option)\n"])
        #expect(result.status == 0, "\(result.stderrText)")
        let said = result.said
        #expect(said.contains("skipped") && said.contains("M.a"), "generation says which option it skipped: \(said)")
        #expect(header.contains("int32_t *a;") && header.contains("char *s;"), "the fields stay pointers")
    }

    @Test func optionsOnEnumsAtEveryNestingLevelAreReportedWhereTheyAct() throws {
        let nested = """
            syntax = "proto3";
            enum Top { TOP_A = 0; }
            message M { enum Inner { INNER_A = 0; } message N { enum Deep { DEEP_A = 0; } Deep d = 1; } Inner i = 1; N n = 2; Top t = 3; }
            """
        let options = "Top packed_enum:true\nM.Inner packed_enum:true\nM.N.Deep packed_enum:true\n"
        let (result, _) = try generateC(["x.proto": nested, "x.options": options])
        #expect(result.status == 0, "\(result.stderrText)")
        for (element, line) in [("Top", 1), ("M.Inner", 2), ("M.N.Deep", 3)] {
            #expect(result.said.contains("x.proto: \(element): packed_enum = true (from x.options:\(line))"), "\(element) in: \(result.said)")
        }
    }

    @Test(arguments: ["type:FT_STATIC", "type:FT_CALLBACK"])
    func honouringOptionsRefusesAStorageChangeNamingFieldAndOption(_ option: String) throws {
        let (result, _) = try generateC(["x.proto": schema, "x.options": "M.a \(option)\n"], extra: ["--honour-options"])
        #expect(result.status != 0, "generation must refuse \(option)")
        let said = result.said
        #expect(said.contains("M.a") && said.contains(String(option.split(separator: ":")[1])), "the refusal names field and option: \(said)")
    }

    @Test func aFullRunWritesFacadesBesideTheCTargetAndSaysHowToDeclareThem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-protosh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Two files: two headers in include/ and two sources in src/ (folders made once, then reused).
        try writeSchema(["x.proto": schema, "y.proto": "syntax = \"proto3\";\nmessage Y { bool on = 1; }\n"], into: dir)
        let out = dir.appendingPathComponent("TwoC").path, facades = dir.appendingPathComponent("TwoFacades").path
        let result = try runProtoScript(in: dir, ["--c-out", out, "--swift-out", facades])
        #expect(result.status == 0, "\(said(result))")
        let manager = FileManager.default
        for file in ["include/x.pb.h", "include/y.pb.h", "src/x.pb.c", "src/y.pb.c", "include/TwoC.h", "include/module.modulemap"] {
            #expect(manager.fileExists(atPath: out + "/" + file), "\(file)")
        }
        let swift = try manager.contentsOfDirectory(atPath: facades).filter { $0.hasSuffix(".swift") }
        #expect(!swift.isEmpty, "facades written to \(facades)")
        // TwoC is not a target of this package: the run says how to declare both targets.
        #expect(said(result).contains(".target(name: \"TwoC\"") && said(result).contains(".target(name: \"TwoFacades\""),
                "\(said(result))")
        let quiet = try runProtoScript(in: dir, ["--c-out", out, "--swift-out", facades], hint: false)
        #expect(quiet.status == 0 && !said(quiet).contains(".target(name:"), "\(said(quiet))")
    }

    @Test func pruningKeepsOnlyTheFacadesTheSourcesSpell() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-protosh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeSchema(["x.proto": schema, "y.proto": "syntax = \"proto3\";\nmessage Y { bool on = 1; }\n"], into: dir)
        let sources = dir.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try "let y = Y.with { $0.on = true }\n".write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let facades = dir.appendingPathComponent("PrunedFacades").path
        let result = try runProtoScript(in: dir, ["--c-out", dir.appendingPathComponent("PrunedC").path, "--swift-out", facades,
                                                  "--prune-sources", sources.path], hint: false)
        #expect(result.status == 0, "\(said(result))")
        let text = try FileManager.default.contentsOfDirectory(atPath: facades).filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOfFile: facades + "/" + $0, encoding: .utf8) }.joined()
        #expect(text.contains("typealias Y ="), "the spelled type is kept")
        #expect(!text.contains("typealias M ="), "the unspelled type is pruned: \(text.prefix(400))")
    }

    @Test func noHintForACModuleThePackageAlreadyDeclares() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-protosh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeSchema(["x.proto": schema], into: dir)
        let declared = try runProtoScript(in: dir, ["--c-only", "--c-out", dir.appendingPathComponent("c").path, "--c-module", "BundledProtoC"])
        #expect(declared.status == 0 && !said(declared).contains(".target(name:"), "\(said(declared))")
        let undeclared = try runProtoScript(in: dir, ["--c-only", "--c-out", dir.appendingPathComponent("d").path, "--c-module", "NotInThePackageC"])
        #expect(undeclared.status == 0 && said(undeclared).contains(".target(name: \"NotInThePackageC\""), "\(said(undeclared))")
        #expect(!said(undeclared).contains("NanopbRuntime"), "a C-only run declares no facade target")
    }

    @Test func aSecondRunRewritesOnlyChangedFilesAndRemovesStaleOnes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-protosh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeSchema(["x.proto": schema, "y.proto": "syntax = \"proto3\";\nmessage Y { bool on = 1; }\n"], into: dir)
        let out = dir.appendingPathComponent("SyncC").path
        let first = try runProtoScript(in: dir, ["--c-only", "--c-out", out])
        #expect(first.status == 0, "\(said(first))")
        let manager = FileManager.default
        let unchanged = out + "/include/x.pb.h"
        let stamp = try #require(try manager.attributesOfItem(atPath: unchanged)[.modificationDate] as? Date)
        // Left behind by an earlier schema: a file (with a backslash in its name) and an empty folder.
        let stale = out + "/src/old\\name.pb.c"
        try "/* stale */\n".write(toFile: stale, atomically: true, encoding: .utf8)
        try manager.createDirectory(atPath: out + "/src/gone", withIntermediateDirectories: true)
        try writeSchema(["y.proto": "syntax = \"proto3\";\nmessage Y { bool on = 1; int32 level = 2; }\n"], into: dir)
        let second = try runProtoScript(in: dir, ["--c-only", "--c-out", out])
        #expect(second.status == 0 && !said(second).contains("differ"), "a quiet run: \(said(second))")
        #expect(try manager.attributesOfItem(atPath: unchanged)[.modificationDate] as? Date == stamp, "x.pb.h was rewritten")
        #expect(try String(contentsOfFile: out + "/include/y.pb.h", encoding: .utf8).contains("level"))
        #expect(!manager.fileExists(atPath: stale), "the stale file is removed")
        #expect(!manager.fileExists(atPath: out + "/src/gone"), "the empty folder is removed")
    }

    @Test func aProtoFileWhoseNameHasABackslashIsWrittenUnderThatName() throws {
        // protoc and nanopb take any file name; the copy into the output folder must not read the
        // backslash as an escape.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-protosh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeSchema(["we\\ird.proto": "syntax = \"proto3\";\nmessage Q { int32 v = 1; }\n"], into: dir)
        let out = dir.appendingPathComponent("OddC").path
        let result = try runProtoScript(in: dir, ["--c-only", "--c-out", out])
        #expect(result.status == 0, "\(said(result))")
        for file in ["/src/we\\ird.pb.c", "/include/we\\ird.pb.h"] {
            #expect(FileManager.default.fileExists(atPath: out + file), "\(file) written")
        }
    }

    @Test func aCOutFolderMakeProtoDidNotWriteIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-protosh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeSchema(["x.proto": schema], into: dir)
        let foreign = dir.appendingPathComponent("Theirs")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try "keep me\n".write(to: foreign.appendingPathComponent("README"), atomically: true, encoding: .utf8)
        let refused = try runProtoScript(in: dir, ["--c-only", "--c-out", foreign.path])
        #expect(refused.status != 0 && said(refused).contains("was not generated by make proto"), "\(said(refused))")
        #expect(FileManager.default.fileExists(atPath: foreign.appendingPathComponent("README").path))
        // An empty folder is fine, and so is a regular file in the way failing loudly.
        let empty = dir.appendingPathComponent("Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(try runProtoScript(in: dir, ["--c-only", "--c-out", empty.path]).status == 0)
        let file = dir.appendingPathComponent("AFile")
        try "x\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try runProtoScript(in: dir, ["--c-only", "--c-out", file.path]).status != 0)
    }

    /// `int_size` narrows the C type; a field's `[default]` must fit the narrowed type, at both ends.
    @Test(arguments: [("uint32", "255", true), ("uint32", "256", false), ("int32", "127", true),
                      ("int32", "128", false), ("int32", "-128", true), ("int32", "-129", false)])
    func honouringIntSizeChecksTheDefaultAgainstTheNarrowedRange(_ type: String, _ value: String, _ fits: Bool) throws {
        let narrow = """
            syntax = "proto2";
            message N { optional \(type) v = 1 [default = \(value)]; }
            """
        let (result, header) = try generateC(["x.proto": narrow, "x.options": "N.v int_size:IS_8\n"], extra: ["--honour-options"])
        let said = result.said
        if fits {
            #expect(result.status == 0, "\(said)")
            #expect(header.contains(type == "uint32" ? "uint8_t *v;" : "int8_t *v;"), "the field is narrowed: \(header)")
        } else {
            #expect(result.status != 0, "a default of \(value) does not fit IS_8 on \(type)")
            #expect(said.contains("does not fit") && said.contains("N.v"), "the refusal names field and reason: \(said)")
        }
    }

    @Test func theABIGuardStopsEveryTranslationUnitBuiltWithALayoutChangingMacro() throws {
        // Each generated .c of the bundled schema and each copied runtime .c, compiled the way
        // SwiftPM compiles CNanopb but with a macro that changes nanopb's structs.
        let include = repositoryRoot + "/Sources/Shipped/CNanopb/include"
        var units: [String] = []
        for folder in ["/Sources/Generated/BundledProtoC/src/rtm", "/Sources/Shipped/CNanopb/runtime"] {
            let path = repositoryRoot + folder
            units += try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".c") }.sorted().map { path + "/" + $0 }
        }
        #expect(units.count >= 9)
        for unit in units {
            let plain = try ChildProcess.run("/usr/bin/cc", ["-fsyntax-only", "-I", include,
                                                             "-I", repositoryRoot + "/Sources/Generated/BundledProtoC/include", unit])
            #expect(plain.status == 0, "\(unit) compiles as configured: \(plain.stderrText)")
            let broken = try ChildProcess.run("/usr/bin/cc", ["-fsyntax-only", "-DPB_NO_ERRMSG", "-I", include,
                                                              "-I", repositoryRoot + "/Sources/Generated/BundledProtoC/include", unit])
            #expect(broken.status != 0 && broken.stderrText.contains("PB_NO_ERRMSG"), "\(unit) must not build with PB_NO_ERRMSG")
        }
    }

    @Test func aCPlusPlusUnitIncludingTheGeneratedHeadersGetsTheSameGuard() throws {
        // nanopb's headers are usable from C++; the guard spells its static assertions for both.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-cxx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let unit = dir.appendingPathComponent("uses_facade_structs.cpp").path
        try "#include \"BundledProtoC.h\"\nint main() { return 0; }\n".write(toFile: unit, atomically: true, encoding: .utf8)
        let includes = ["-I", repositoryRoot + "/Sources/Shipped/CNanopb/include", "-I", repositoryRoot + "/Sources/Generated/BundledProtoC/include"]
        let plain = try ChildProcess.run("/usr/bin/c++", ["-std=c++11", "-fsyntax-only"] + includes + [unit])
        #expect(plain.status == 0, "a C++ unit compiles as configured: \(plain.stderrText)")
        let broken = try ChildProcess.run("/usr/bin/c++", ["-std=c++11", "-fsyntax-only", "-DPB_NO_ERRMSG"] + includes + [unit])
        #expect(broken.status != 0 && broken.stderrText.contains("PB_NO_ERRMSG"), "a C++ unit must not build with PB_NO_ERRMSG: \(broken.stderrText)")
    }
}
