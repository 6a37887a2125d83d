// Generator inputs no bundled schema has: a name with a character outside identifiers, control
// characters in a literal, a type selected through its oneof enum's name, an editions file, a C
// module name that is not an identifier, and the code writer's block.

import Foundation
import ProtoSchema
import Testing
@testable import ProtoGenKit
import TestSupport

@Suite struct GeneratorEdgeInputTests {
    @Test func aCharacterOutsideIdentifiersBecomesAnUnderscore() {
        #expect(Naming.camelCase("a-b", initialUpper: false) == "a_B")
    }

    @Test func controlCharactersInALiteralAreWrittenAsUnicodeEscapes() {
        #expect("a\u{1}b\u{7f}\"\\\n\r\t".swiftLiteral == #""a\u{1}b\u{7f}\"\\\n\r\t""#)
    }

    @Test func aBlockIsItsHeaderItsIndentedBodyAndAClosingBrace() {
        var writer = CodeWriter()
        writer.open("x {")
        writer.block("y {", ["z", ""])
        writer.close("}")
        #expect(writer.text == "x {\n    y {\n        z\n\n    }\n}\n")
    }

    @Test func aOneofEnumsNameSelectsItsMessage() throws {
        let schema = try compileSchema(["s.proto": "syntax = \"proto3\";\nmessage M { oneof choice { int32 a = 1; } }\nmessage N { int32 b = 1; }\n"])
        #expect(try FacadePlan(schema: schema, selection: .spelled(["M_OneOf_Choice"])).emitted == ["M"])
    }

    @Test func anEditionsFileIsRefused() {
        // FileDescriptorSet { file { name: "e.proto" message_type { name: "M" } syntax: "editions" } }
        let file: [UInt8] = [0x0a, 7] + Array("e.proto".utf8) + [0x22, 3, 0x0a, 1, 0x4d] + [0x62, 8] + Array("editions".utf8)
        #expect(throws: GeneratorError.unsupported(file: "e.proto", element: "edition", reason: "editions files are not supported by nanopb 0.4.7")) {
            try FacadePlan(schema: SchemaSet(descriptorSet: [0x0a, UInt8(file.count)] + file), selection: .all)
        }
    }

    @Test func aCModuleNameThatIsNotAnIdentifierIsRefusedWhetherNamedOrTakenFromTheFolder() throws {
        let folder = try TemporaryFolder("module-name")
        #expect(try runGeneration(protoDirectory: folder.path, ["--c-out", folder.path + "/Out", "--c-module", "bad-name", "--c-only"], hint: false).said
                == "C module name 'bad-name' is not an identifier")
        #expect(try runGeneration(protoDirectory: folder.path, ["--c-out", folder.path + "/1Out", "--c-only"], hint: false).said
                == "C module name '1Out' is not an identifier")
    }
}
