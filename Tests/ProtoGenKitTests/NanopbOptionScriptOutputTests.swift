// scripts/proto-options.py run as `protogen plan --nanopb-options` runs it, on small schemas written
// here: its exact standard output (the JSON list, keys sorted, one space of indent, a final line
// end), a schema whose own nanopb.proto lives under another path, a global options file that
// must not reach nanopb.proto or descriptor.proto, and the one line on stderr
// that names the file and element being read when a failure nothing else expects occurs.

import Foundation
import ProofSupport
import Testing
import TestSupport
@testable import ProtoGenKit

@Suite struct NanopbOptionScriptOutputTests {
    /// Writes `files` (path → text) into a scratch folder, compiles every `.proto` among them with
    /// imports into a descriptor set (nanopb's generator/proto on the import path after the
    /// folder), and runs the script on it.
    /// `options`: a file among `files` passed as `--options` (read for every file of the set).
    static func run(_ files: [String: String], options: String? = nil) throws -> ChildProcess.Result {
        let tools = try GenerationTools.inTree(repositoryRoot)
        let scratch = try TemporaryFolder("option-script")
        for (path, text) in files {
            let file = scratch.path + "/" + path
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        let set = scratch.path + "/schema.pb"
        _ = try tools.run(tools.protoc, ["-I" + scratch.path, "-I" + tools.nanopb + "/generator/proto", "--include_imports",
                                         "--descriptor_set_out=" + set] + files.keys.filter { $0.hasSuffix(".proto") }.sorted(),
                          in: scratch.path, what: "protoc")
        return try ChildProcess.run("/usr/bin/python3", [repositoryRoot + "/scripts/proto-options.py", tools.nanopb + "/generator",
                                                         set, scratch.path] + (options.map { ["--options", scratch.path + "/" + $0] } ?? []),
                                          in: repositoryRoot)
    }

    static let mini = """
        syntax = "proto2";
        import "nanopb.proto";
        package mini;
        message M { optional string name = 1 [(nanopb).max_size = 8]; }

        """

    /// The report's entry for `mini`'s one annotation, as json.dump(indent=1, sort_keys=True) prints it.
    static let maxSizeEntry = """
         {
          "element": "mini.M.name",
          "file": "mini.proto",
          "kind": "field",
          "option": "max_size",
          "source": "(nanopb) annotation",
          "value": "8"
         }
        """

    @Test func theReportIsAJSONListWithSortedKeysOneSpaceOfIndentAndAFinalLineEnd() throws {
        let result = try Self.run(["mini.proto": Self.mini, "mini.options": "mini.M.name sort_fields:true\n"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(said(result))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == """
            [
             {
              "element": "mini.M.name",
              "file": "mini.proto",
              "kind": "pattern",
              "option": "sort_fields",
              "source": "mini.options:1",
              "unread": "nanopb 0.4.7 has no option named sort_fields",
              "value": "true"
             },

            """ + Self.maxSizeEntry + "\n]\n")
    }

    @Test func aTypeTheGeneratorGivesEveryFieldAnywayIsNoOption() throws {
        // protogen runs nanopb with FT_POINTER for every field: setting it changes nothing.
        let result = try Self.run(["mini.proto": Self.mini, "mini.options": "mini.M.name type:FT_POINTER\n"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(said(result))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "[\n" + Self.maxSizeEntry + "\n]\n")
    }

    @Test func annotationsThroughTheSchemasOwnNanopbProtoUnderAnotherPathAreRead() throws {
        let nanopb = try String(contentsOfFile: repositoryRoot + "/.deps/nanopb/generator/proto/nanopb.proto", encoding: .utf8)
        let result = try Self.run(["vendored/nanopb.proto": nanopb,
                                   "mini.proto": Self.mini.replacingOccurrences(of: #"import "nanopb.proto""#, with: #"import "vendored/nanopb.proto""#)])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(said(result))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "[\n" + Self.maxSizeEntry + "\n]\n")
    }

    @Test func annotationsOfAFileThatSeesNanopbProtoOnlyThroughAPublicImportAreRead() throws {
        // mini.proto imports common.proto, which imports nanopb.proto publicly: protoc lets mini use
        // (nanopb) and nanopb's generator applies it, with no .options file anywhere.
        let result = try Self.run(["common.proto": "syntax = \"proto2\";\nimport public \"nanopb.proto\";\n",
                                   "mini.proto": Self.mini.replacingOccurrences(of: #"import "nanopb.proto""#, with: #"import "common.proto""#)])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(said(result))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "[\n" + Self.maxSizeEntry + "\n]\n")
    }

    @Test func aGlobalOptionsFileReachesTheSchemasFilesButNotNanopbProtoNorDescriptorProto() throws {
        // `*.name` also matches descriptor.proto's fields (nanopb.proto imports it): they are no
        // part of the schema and must not be listed.
        let result = try Self.run(["mini.proto": Self.mini, "global.options": "*.name max_size:4\n"], options: "global.options")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(said(result))")
        #expect(String(decoding: result.stdout, as: UTF8.self)
                == "[\n" + Self.maxSizeEntry.replacingOccurrences(of: #""(nanopb) annotation""#, with: #""global.options:1, (nanopb) annotation""#) + "\n]\n")
    }

    @Test func aMessagesUnreadOptionIsListedOnTheMessageAndNotAgainOnItsOneof() throws {
        // nanopb reads a oneof's options through its message's: the message's annotation reaches
        // the oneof, but its option numbers 0.4.7 does not know are the message's to report.
        let newer = try String(contentsOfFile: repositoryRoot + "/Tests/Schemas/options-newer-nanopb/nanopb.proto", encoding: .utf8)
        let result = try Self.run(["nanopb.proto": newer, "m2.proto": """
            syntax = "proto2";
            import "nanopb.proto";
            package m2;
            message M {
              option (nanopb_msgopt).discard_unused_automatic_types = true;
              oneof choice { int32 a = 1; }
            }

            """])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(said(result))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == """
            [
             {
              "element": "m2.M",
              "file": "m2.proto",
              "kind": "message",
              "option": "discard_unused_automatic_types",
              "source": "(nanopb) annotation",
              "unread": "option number 30 is not in nanopb 0.4.7's nanopb.proto (the schema's nanopb.proto declares it as discard_unused_automatic_types): not applied",
              "value": "true"
             }
            ]

            """)
    }

    @Test func anUnreadEnumOptionIsListedWithItsValuesName() throws {
        // A nanopb.proto newer than 0.4.7 with an enum-typed option 0.4.7 does not have.
        let newer = try String(contentsOfFile: repositoryRoot + "/Tests/Schemas/options-newer-nanopb/nanopb.proto", encoding: .utf8)
            .replacingOccurrences(of: "message NanoPBOptions {\n", with: "message NanoPBOptions {\n  optional IntSize future_size = 90;\n")
        let result = try Self.run(["nanopb.proto": newer, "m3.proto": """
            syntax = "proto2";
            import "nanopb.proto";
            package m3;
            message M { optional int32 a = 1 [(nanopb).future_size = IS_16]; }

            """])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(said(result))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == """
            [
             {
              "element": "m3.M.a",
              "file": "m3.proto",
              "kind": "field",
              "option": "future_size",
              "source": "(nanopb) annotation",
              "unread": "option number 90 is not in nanopb 0.4.7's nanopb.proto (the schema's nanopb.proto declares it as future_size): not applied",
              "value": "IS_16"
             }
            ]

            """)
    }

    /// The report entry of an option number on `element` (a `kind`) that no nanopb.proto declares.
    static func undeclaredEntry(_ number: Int, _ value: String, on element: String = "raw.M.a", kind: String = "field") -> String {
        """
         {
          "element": "\(element)",
          "file": "raw.proto",
          "kind": "\(kind)",
          "option": "#\(number)",
          "source": "(nanopb) annotation",
          "unread": "option number \(number) is not in nanopb 0.4.7's nanopb.proto (the schema's nanopb.proto does not declare it either): not applied",
          "value": \(value)
         }
        """
    }

    @Test func optionNumbersNoNanopbProtoDeclaresAreListedByNumberAndAOneofsOtherOptionsAreLeftAlone() throws {
        // Field 1010 of a field's options as raw bytes: a NanoPBOptions holding fields 200
        // (varint 1), 201 (the text "hi") and 202 (the byte 0xff, no UTF-8). On the oneof,
        // field 1010 (where a newer nanopb.proto puts (nanopb)) holds field 200 too, and field
        // 5000, no (nanopb) annotation, the same bytes: only the first is read.
        let result = try Self.run(["raw.proto": """
            syntax = "proto2";
            import "google/protobuf/descriptor.proto";
            package raw;
            extend google.protobuf.FieldOptions { optional bytes field_raw = 1010; }
            extend google.protobuf.OneofOptions { optional bytes oneof_raw = 1010; optional bytes oneof_other = 5000; }
            message M {
              oneof choice {
                option (oneof_raw) = "\\xc0\\x0c\\x01";
                option (oneof_other) = "\\xc0\\x0c\\x01";
                int32 a = 1 [(field_raw) = "\\xc0\\x0c\\x01\\xca\\x0c\\x02hi\\xd2\\x0c\\x01\\xff"];
              }
            }

            """, "raw.options": "raw.M.a int_size:IS_8\n"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(said(result))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "[\n" + [
            Self.undeclaredEntry(200, #""1""#, on: "raw.M.choice", kind: "oneof"),
            Self.undeclaredEntry(200, #""1""#), Self.undeclaredEntry(201, #""\"hi\"""#), Self.undeclaredEntry(202, #""ff""#), """
             {
              "element": "raw.M.a",
              "file": "raw.proto",
              "kind": "field",
              "option": "int_size",
              "source": "raw.options:1",
              "value": "IS_8"
             }
            """].joined(separator: ",\n") + "\n]\n")
    }

    @Test func aMessagesOneofOptionIsReportedOnItsOneofAndAnEnumValuesAnnotationIsUnread() throws {
        // no_unions set on the message acts on its oneof (the message's baseline lacks it); field
        // 1010 of an enum value's options, where a newer nanopb.proto puts (nanopb): max_size 5.
        let result = try Self.run(["m3.proto": """
            syntax = "proto2";
            import "nanopb.proto";
            import "google/protobuf/descriptor.proto";
            package m3;
            extend google.protobuf.EnumValueOptions { optional bytes value_raw = 1010; }
            message M {
              option (nanopb_msgopt).no_unions = true;
              oneof choice { int32 a = 1; }
            }
            enum E { Z = 0 [(value_raw) = "\\x08\\x05"]; }

            """])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(said(result))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == """
            [
             {
              "element": "m3.M.choice",
              "file": "m3.proto",
              "kind": "oneof",
              "option": "no_unions",
              "source": "(nanopb) annotation",
              "value": "true"
             },
             {
              "element": "m3.E.Z",
              "file": "m3.proto",
              "kind": "enum value",
              "option": "max_size",
              "source": "(nanopb) annotation",
              "unread": "nanopb 0.4.7 reads no (nanopb) annotation on a enum value; set it in a .options file",
              "value": "5"
             }
            ]

            """)
    }

    @Test func aFailureWhileReadingAnElementNamesItsFileAndElementOnOneLine() throws {
        // Field 1010 of a oneof's options, where a newer nanopb.proto puts (nanopb): bytes that
        // are no NanoPBOptions message (a length running past the end).
        let result = try Self.run(["odd.proto": """
            syntax = "proto2";
            import "google/protobuf/descriptor.proto";
            package odd;
            extend google.protobuf.OneofOptions { optional bytes oneof_nanopb = 1010; }
            message M {
              oneof choice {
                option (oneof_nanopb) = "\\x0a\\x09";
                int32 a = 1;
              }
            }

            """, "odd.options": "odd.M.a int_size:IS_8\n"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(String(decoding: result.stderr, as: UTF8.self) == "proto-options: odd.proto: odd.M.choice: cannot read its nanopb options: "
                + "DecodeError: Error parsing message with type 'NanoPBOptions'\n")
    }
}
