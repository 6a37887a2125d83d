// Where the schema's nanopb `.options` come from: the file named on the command line, else the one
// `.options` file at the top of the schema folder, else none; and the folders searched per file.

import Foundation
import Testing
@testable import ProtoGenKit
import TestSupport

@Suite struct OptionSourcesTests {
    static func touch(_ path: String) { #expect(FileManager.default.createFile(atPath: path, contents: Data())) }

    @Test func theOneOptionsFileAtTheTopOfTheSchemaFolderIsUsed() throws {
        let folder = try TemporaryFolder("options-one")
        Self.touch(folder.path + "/a.proto")
        Self.touch(folder.path + "/a.options")
        #expect(SchemaGeneration.defaultOptionsFile(in: folder.path) == folder.path + "/a.options")
        #expect(try SchemaGeneration.optionSources(optionsFile: nil, protoDirectory: folder.path, protoPaths: ["s1", "s2"])
                == ["--options", folder.path + "/a.options", "--search", "s1", "--search", "s2"])
    }

    @Test func twoOptionsFilesOrAFolderThatCannotBeListedGiveNone() throws {
        let folder = try TemporaryFolder("options-two")
        Self.touch(folder.path + "/a.options")
        Self.touch(folder.path + "/b.options")
        #expect(SchemaGeneration.defaultOptionsFile(in: folder.path) == nil)
        #expect(SchemaGeneration.defaultOptionsFile(in: folder.path + "/missing") == nil)
        #expect(try SchemaGeneration.optionSources(optionsFile: nil, protoDirectory: folder.path + "/missing", protoPaths: []) == [])
    }

    @Test func aNamedOptionsFileWinsAndMustExist() throws {
        let folder = try TemporaryFolder("options-named")
        Self.touch(folder.path + "/a.options")
        Self.touch(folder.path + "/named.txt")
        #expect(try SchemaGeneration.optionSources(optionsFile: folder.path + "/named.txt", protoDirectory: folder.path, protoPaths: [])
                == ["--options", folder.path + "/named.txt"])
        let missing = folder.path + "/absent.options"
        #expect(throws: GeneratorError.io(path: missing, reason: "options file does not exist")) {
            try SchemaGeneration.optionSources(optionsFile: missing, protoDirectory: folder.path, protoPaths: [])
        }
    }
}
