import ArgumentParser
import Foundation
import Testing
import ProofSupport
@testable import ProveKit
import TestSupport

/// `wireproof check-protocol`: which folders it regenerates and compares, how two trees are
/// compared, what it prints, and that a regeneration which disagrees with the committed output
/// fails it.
@Suite struct ProtocolCheckTests {
    private let files = FileManager.default

    private func folder(_ contents: [String: String]) throws -> String {
        let path = files.temporaryDirectory.appendingPathComponent("protocol-check-\(getpid())-\(UUID().uuidString)").path
        try files.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (file, text) in contents { try write(text, to: path + "/" + file) }
        return path
    }

    private func write(_ text: String, to path: String) throws {
        try files.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func theBundledSchemaComparesItsCatalogAndNoOtherSchemaDoes() {
        var settings = ProtocolCheckSettings()
        #expect(settings.catalog == "Sources/Generated/BundledProtoCatalog")
        #expect(settings.folders.map(\.committed) == ["Sources/Generated/BundledProtoC", "Sources/Generated/BundledProto",
                                                      "Sources/Generated/BundledProtoCatalog"])
        #expect(settings.folders.map(\.fresh) == ["BundledProtoC", "BundledProto", "catalog-BundledProtoCatalog"])
        settings.protoDirectory = "Other"
        #expect(settings.catalog == nil)
        settings = ProtocolCheckSettings()
        settings.swiftOut = "Sources/Mine"
        #expect(settings.catalog == nil)
        settings = ProtocolCheckSettings()
        settings.pruneSources = ["Sources/App"]
        #expect(settings.catalog == nil)
    }

    @Test func aGivenCatalogIsComparedAndAnEmptyOneIsNot() {
        var settings = ProtocolCheckSettings()
        settings.protoDirectory = "Other"
        settings.catalogOut = "Sources/OtherCatalog"
        #expect(settings.catalog == "Sources/OtherCatalog")
        settings = ProtocolCheckSettings()
        settings.catalogOut = ""
        #expect(settings.catalog == nil)
        #expect(settings.folders.count == 2)
    }

    @Test func cOnlyComparesTheCTargetAlone() {
        var settings = ProtocolCheckSettings()
        settings.cOnly = true
        settings.catalogOut = "Sources/Catalog"
        #expect(settings.catalog == nil)
        #expect(settings.folders.map(\.committed) == ["Sources/Generated/BundledProtoC"])
    }

    @Test func theRequestIsMakeProtosWithTheOutputInTheScratchFolder() {
        var settings = ProtocolCheckSettings()
        settings.cOut = "Sources/MyC"
        settings.pruneSources = ["Sources/App", "/abs/App"]
        settings.optionsFile = "my.options"
        settings.limitsFromOptions = true
        let check = ProtocolCheck(root: "/r", settings: settings, compiler: "cc", say: { _ in })
        #expect(check.scratch == "/r/.scratch/check-protocol")
        let request = check.request
        #expect(request.protoDirectory == "/r/Protos")
        #expect(request.cOut == "/r/.scratch/check-protocol/MyC")
        #expect(request.cModule == "MyC")
        #expect(request.swiftOut == "/r/.scratch/check-protocol/BundledProto")
        #expect(request.pruneSources == ["/r/Sources/App", "/abs/App"])
        #expect(request.optionsFile == "/r/my.options")
        #expect(request.limitsFromOptions)
        settings.cOnly = true
        settings.cModule = "Named"
        let cOnly = ProtocolCheck(root: "/r", settings: settings, compiler: "cc", say: { _ in }).request
        #expect(cOnly.swiftOut == nil)
        #expect(cOnly.cModule == "Named")
    }

    @Test func everyDisagreementIsListedStaleThenMissingThenChanged() throws {
        let committed = try folder(["same.c": "1", "changed.h": "old", "gone/old.c": "x", ".hidden": "a", "b/z.c": "z"])
        let fresh = try folder(["same.c": "1", "changed.h": "new", "new/extra.c": "y", ".hidden": "b", "b/z.c": "z"])
        #expect(GeneratedTreeComparison.compare(committed: committed, fresh: fresh, name: "Gen") == [
            .stale("Gen/gone/old.c"), .missing("Gen/new/extra.c"), .differs("Gen/.hidden"), .differs("Gen/changed.h"),
        ])
        #expect(GeneratedTreeComparison.compare(committed: committed, fresh: committed, name: "Gen").isEmpty)
    }

    @Test func aFolderThatDoesNotExistHasNoFiles() throws {
        let fresh = try folder(["a.c": "1"])
        #expect(GeneratedTreeComparison.files(in: fresh + "/nothing").isEmpty)
        #expect(GeneratedTreeComparison.compare(committed: fresh + "/nothing", fresh: fresh, name: "N") == [.missing("N/a.c")])
    }

    @Test func aPassedCheckPrintsNothingAndEachFailureItsSection() {
        let settings = ProtocolCheckSettings()
        #expect(ProtocolCheckOutcome().passed)
        #expect(ProtocolCheckCommand.failureLines(ProtocolCheckOutcome(), settings: settings).isEmpty)
        var differs = ProtocolCheckOutcome(), untracked = ProtocolCheckOutcome(), stale = ProtocolCheckOutcome()
        differs.differences = [.differs("Sources/Generated/BundledProto/a.pb.swift")]
        untracked.untracked = ["Sources/Generated/BundledProtoC/src/x.pb.c"]
        stale.renameDifferences = ["not renamed: pb_x"]
        let expected: [(ProtocolCheckOutcome, [String])] = [
            (differs, ["check-protocol: generated output is out of date; run 'make proto' and commit the result:",
                       "  differs: Sources/Generated/BundledProto/a.pb.swift",
                       "  (fresh output kept in .scratch/check-protocol; e.g. diff -ru Sources/Generated/BundledProtoC .scratch/check-protocol/BundledProtoC)"]),
            (untracked, ["check-protocol: generated files are not committed yet (git add them):",
                         "  untracked: Sources/Generated/BundledProtoC/src/x.pb.c"]),
            (stale, ["check-protocol: the nanopb rename list is stale; run 'swift run wireproof nanopb-symbols --write':",
                     "  not renamed: pb_x"]),
        ]
        for (outcome, lines) in expected {
            #expect(!outcome.passed)
            #expect(ProtocolCheckCommand.failureLines(outcome, settings: settings) == lines)
        }
    }

    @Test func theCommandLineSetsMakeProtosKnobs() throws {
        let command = try ProtocolCheckCommand.parse(["--proto-dir", "P", "--c-out", "C/Out", "--c-module", "M", "--swift-out", "S",
                                                      "--catalog-out", "", "--prune-sources", "A", "B", "--options", "o.options",
                                                      "--limits-from-options", "--c-only"])
        var expected = ProtocolCheckSettings()
        expected.protoDirectory = "P"
        expected.cOut = "C/Out"
        expected.cModule = "M"
        expected.swiftOut = "S"
        expected.catalogOut = ""
        expected.pruneSources = ["A", "B"]
        expected.optionsFile = "o.options"
        expected.limitsFromOptions = true
        expected.cOnly = true
        #expect(command.settings == expected)
        #expect(try ProtocolCheckCommand.parse([]).settings == ProtocolCheckSettings())
        #expect(throws: (any Error).self) { try ProtocolCheckCommand.parse(["--catalog"]) }
    }

    @Test func generatedFilesGitDoesNotTrackAreListedButIgnoredOnesAndFoldersOutsideTheRootAreNot() throws {
        let root = try folder(["Gen/tracked.h": "1\n", ".gitignore": "*.o\n"])
        defer { try? files.removeItem(atPath: root) }
        let git = ["-c", "user.name=t", "-c", "user.email=t@localhost"]
        for arguments in [["init", "-q"], ["add", "."], git + ["commit", "-qm", "c"]] {
            #expect(try ChildProcess.run("/usr/bin/git", arguments, in: root).status == 0)
        }
        try write("2\n", to: root + "/Gen/new.h")
        try write("3\n", to: root + "/Gen/built.o")
        try write("4\n", to: root + "/Other/new.h")
        #expect(try ProtocolCheck.untrackedFiles(under: [root + "/Gen", "/elsewhere/Gen"], root: root) == ["Gen/new.h"])
        let plain = try folder(["Gen/new.h": "2\n"])
        defer { try? files.removeItem(atPath: plain) }
        #expect(try ProtocolCheck.untrackedFiles(under: [plain + "/Gen"], root: plain).isEmpty, "not a git work tree: nothing is listed")
    }

    /// The real leg on a schema of its own: committed folders that are empty, then equal to the
    /// generation, then hand-edited or holding a stray file.
    @Test func aRegenerationThatDisagreesWithTheCommittedFoldersFailsTheCheck() throws {
        let work = try folder(["protos/t/tiny.proto": "syntax = \"proto3\";\npackage t;\nmessage Tiny { int32 a = 1; string b = 2; }\n"])
        defer { try? files.removeItem(atPath: work) }
        var settings = ProtocolCheckSettings()
        settings.protoDirectory = work + "/protos"
        settings.cOut = work + "/TinyC"
        settings.swiftOut = work + "/Tiny"
        settings.catalogOut = work + "/TinyCatalog"
        let said = Said()
        let check = ProtocolCheck(root: repositoryRoot, settings: settings, compiler: "cc", scratch: work + "/scratch", say: said.append)

        let first = try check.run()
        #expect(said.lines.first == "check-protocol: generating \(work)/protos into \(work)/scratch")
        #expect(said.lines.filter { $0.hasPrefix("check-protocol: comparing ") }
            == ["TinyC", "Tiny", "TinyCatalog"].map { "check-protocol: comparing \(work)/\($0)" })
        #expect(said.lines.contains("check-protocol: checking the nanopb rename list"))
        #expect(!first.passed)
        #expect(first.differences.contains(.missing(work + "/TinyC/include/t/tiny.pb.h")))
        #expect(first.differences.contains(.missing(work + "/Tiny/t_tiny.pb.swift")))
        #expect(first.differences.allSatisfy { if case .missing = $0 { true } else { false } })
        #expect(first.untracked.isEmpty && first.renameDifferences.isEmpty)

        for (committed, fresh) in [("TinyC", "TinyC"), ("Tiny", "Tiny"), ("TinyCatalog", "catalog-TinyCatalog")] {
            try files.copyItem(atPath: work + "/scratch/" + fresh, toPath: work + "/" + committed)
        }
        // The command over the same folders: everything matching returns and says so last, on
        // standard output, naming the folders compared; nothing goes to standard error.
        let arguments = ["--proto-dir", work + "/protos", "--c-out", work + "/TinyC", "--swift-out", work + "/Tiny",
                         "--catalog-out", work + "/TinyCatalog", "--scratch", work + "/scratch"]
        let out = Said(), err = Said()
        try ProtocolCheckCommand.parse(arguments).run(out: out.append, err: err.append)
        #expect(out.lines.last == "check-protocol: generated output matches (\(work)/TinyC, \(work)/Tiny, \(work)/TinyCatalog)")
        #expect(out.lines.first == "check-protocol: generating \(work)/protos into \(work)/scratch")
        #expect(err.lines.isEmpty)

        // A difference is exit status 1 with each file listed on standard error and no verdict.
        try write("// hand edit\n", to: work + "/Tiny/t_tiny.pb.swift")
        try write("", to: work + "/TinyC/include/stray.h")
        out.lines = []
        #expect(throws: ExitCode(1)) { try ProtocolCheckCommand.parse(arguments).run(out: out.append, err: err.append) }
        #expect(err.lines == [
            "check-protocol: generated output is out of date; run 'make proto' and commit the result:",
            "  stale (no longer generated): \(work)/TinyC/include/stray.h",
            "  differs: \(work)/Tiny/t_tiny.pb.swift",
            "  (fresh output kept in .scratch/check-protocol; e.g. diff -ru \(work)/TinyC .scratch/check-protocol/TinyC)",
        ])
        #expect(!out.lines.contains { $0.hasPrefix("check-protocol: generated output matches") })

        // A setup error is exit status 2 with the error on standard error.
        err.lines = []
        #expect(throws: ExitCode(2)) {
            try ProtocolCheckCommand.parse(arguments + ["--cc", work + "/no-such-cc"]).run(out: out.append, err: err.append)
        }
        #expect(err.lines.count == 1)
        #expect(err.lines.first?.hasPrefix("check-protocol: no-such-cc exited with status -1: ") == true, "\(err.lines)")
    }
}

/// Collects progress lines (a class: the check's `say` closure escapes).
private final class Said {
    var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
}
