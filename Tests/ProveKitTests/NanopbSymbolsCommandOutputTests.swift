import ArgumentParser
import Foundation
import Testing
@testable import ProveKit
import TestSupport

/// What `wireproof nanopb-symbols` prints and how it ends: the progress line, the verdict of
/// --check with the list's size and release, a stale header named with its fix and every
/// difference (exit 1), what --write did, and a setup error (exit 2).
@Suite struct NanopbSymbolsCommandOutputTests {
    private let list = try! NanopbRenameList(symbols: ["pb_b", "pb_a", "pb_c"], version: "nanopb-9.9")

    @Test func writingSaysWroteWithTheCountThenUpToDateWhenTheBytesAlreadyMatch() throws {
        let folder = try TemporaryFolder("symbols-write")
        let header = folder.path + "/rename.h"
        try Data("/* old */\n".utf8).write(to: URL(fileURLWithPath: header))
        var said: [String] = []
        try NanopbSymbolsCommand.write(list, to: header, say: { said.append($0) })
        #expect(said == ["nanopb-symbols: wrote \(header) (3 symbols)"])
        #expect(FileManager.default.contents(atPath: header) == Data(list.headerText.utf8))
        said = []
        try NanopbSymbolsCommand.write(list, to: header, say: { said.append($0) })
        #expect(said == ["nanopb-symbols: \(header) is up to date (3 symbols)"])
        #expect(throws: ProtocolCheckError.io(path: folder.path + "/no/such/rename.h", reason: "cannot write")) {
            try NanopbSymbolsCommand.write(list, to: folder.path + "/no/such/rename.h", say: { _ in })
        }
    }

    @Test func aMatchingHeaderIsCompleteWithCountAndReleaseAndAStaleOneSaysNothing() throws {
        let folder = try TemporaryFolder("symbols-check")
        let header = folder.path + "/rename.h"
        try Data(list.headerText.utf8).write(to: URL(fileURLWithPath: header))
        var said: [String] = []
        #expect(try NanopbSymbolsCommand.check(list, against: header, say: { said.append($0) }).isEmpty)
        #expect(said == ["nanopb-symbols: rename list complete (3 symbols, nanopb-9.9)"])
        said = []
        let stale = list.headerText.replacingOccurrences(of: "#define pb_b wp_pb_b\n", with: "")
        try Data(stale.utf8).write(to: URL(fileURLWithPath: header))
        #expect(try NanopbSymbolsCommand.check(list, against: header, say: { said.append($0) }) == ["not renamed: pb_b"])
        #expect(said.isEmpty)
    }

    @Test func aStaleHeaderIsNamedWithItsFixThenEachDifferenceIndented() {
        let inputs = NanopbRuntimeSymbols(root: "/tree", compiler: "cc")
        var printed: [String] = []
        NanopbSymbolsCommand.reportStale(inputs, ["not renamed: pb_x", "renamed but not exported: pb_y"], err: { printed.append($0) })
        #expect(printed == [
            "nanopb-symbols: /tree/Sources/Shipped/CNanopb/include/wireproof_pb_rename.h is stale; run 'swift run wireproof nanopb-symbols --write':",
            "  not renamed: pb_x",
            "  renamed but not exported: pb_y",
        ])
    }

    /// The whole --check on a tree of its own whose header lacks one rename: nanopb's runtime is
    /// compiled once (the project's real sources, through a link), and the counts in the progress
    /// line are those of the project's configuration header.
    @Test func checkOnATreeWhoseHeaderLacksARenameListsItAndExitsOne() throws {
        let tree = try TemporaryFolder("symbols-tree")
        let include = "/Sources/Shipped/CNanopb/include"
        let files = FileManager.default
        try files.createDirectory(atPath: tree.path + "/.deps", withIntermediateDirectories: true)
        try files.createSymbolicLink(atPath: tree.path + "/.deps/nanopb", withDestinationPath: repositoryRoot + "/.deps/nanopb")
        try files.createDirectory(atPath: tree.path + include, withIntermediateDirectories: true)
        let config = try String(contentsOfFile: repositoryRoot + include + "/wireproof_pb_config.h", encoding: .utf8)
        try Data(config.utf8).write(to: URL(fileURLWithPath: tree.path + include + "/wireproof_pb_config.h"))
        let committed = try String(contentsOfFile: repositoryRoot + include + "/wireproof_pb_rename.h", encoding: .utf8)
        #expect(committed.contains("\n#define pb_read wp_pb_read\n"))
        let stale = committed.replacingOccurrences(of: "\n#define pb_read wp_pb_read\n", with: "\n")
        try Data(stale.utf8).write(to: URL(fileURLWithPath: tree.path + include + "/wireproof_pb_rename.h"))
        let macros = config.split(separator: "\n").filter { $0.hasPrefix("#define PB_") }.count
        let release = try #require(committed.split(separator: "\n").first { $0.hasPrefix("#define WIREPROOF_PB_RENAMED_VERSION ") }?
            .split(separator: "\"").dropFirst().first)

        var out: [String] = [], err: [String] = []
        #expect(throws: ExitCode(1)) {
            try NanopbSymbolsCommand.parse(["--check"]).run(root: tree.path, out: { out.append($0) }, err: { err.append($0) })
        }
        #expect(out == ["nanopb-symbols: compiling \(release)'s runtime in 3 variants with \(macros) option macros"])
        #expect(err == ["nanopb-symbols: \(tree.path)\(include)/wireproof_pb_rename.h is stale; run 'swift run wireproof nanopb-symbols --write':",
                        "  not renamed: pb_read"])
    }

    @Test func aTreeWithoutNanopbsSourceIsASetupErrorThatExitsTwo() throws {
        let tree = try TemporaryFolder("symbols-bare")
        var out: [String] = [], err: [String] = []
        #expect(throws: ExitCode(2)) {
            try NanopbSymbolsCommand.parse(["--write"]).run(root: tree.path, out: { out.append($0) }, err: { err.append($0) })
        }
        #expect(out.isEmpty)
        #expect(err == ["nanopb-symbols: \(tree.path)/.deps/nanopb is missing; run 'make setup' first"])
    }
}
