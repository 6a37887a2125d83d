import ArgumentParser
import DeviceProof
import Foundation
import Testing
@testable import ProveKit

/// `wireproof check-foreign`: what it proves, how it lists and selects schemas, how it judges the
/// proofs that must not pass, and its table. (The proofs themselves run in `make check-foreign`.)
@Suite struct ForeignCheckTests {
    private func scratchFolder(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func theCorpusListsSchemaFoldersInByteOrderWithoutHiddenFoldersOrFiles() throws {
        let root = try scratchFolder("foreign-corpus")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = ForeignCorpus(root: root)
        for name in ["onnx", "nanopb-map", "Zeta", "nanopb-Map2", ".wheels"] {
            try FileManager.default.createDirectory(atPath: corpus.folder + "/" + name, withIntermediateDirectories: true)
        }
        try write("", corpus.folder + "/README.proto")
        try write("", corpus.folder + "/" + ForeignCorpus.stamp)
        let listed = try corpus.layOutAndList { Issue.record("a complete corpus was laid out again: \($0)") }
        #expect(listed == ["Zeta", "nanopb-Map2", "nanopb-map", "onnx"].map { corpus.folder + "/" + $0 })
    }

    @Test func aCorpusWithoutItsStampIsLaidOutAgainAndNeedsSetupFirst() throws {
        let root = try scratchFolder("foreign-unstamped")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/.deps/foreign/onnx", withIntermediateDirectories: true)
        #expect(throws: ProveError.self) { _ = try ForeignCorpus(root: root).layOutAndList { _ in } }
    }

    @Test func onlySelectsByFolderNameInListOrderAndNamesEveryUnknownName() throws {
        let corpus = ["/c/googleapis", "/c/nanopb-map", "/c/onnx"]
        let all = try ForeignRuns.schemas(corpus: corpus, root: "/r", only: [])
        #expect(all == corpus + ForeignRuns.ownSchemas.map { "/r/" + $0 })
        #expect(try ForeignRuns.schemas(corpus: corpus, root: "/r", only: ["naming", "onnx"]) == ["/c/onnx", "/r/Tests/Schemas/naming"])
        do {
            _ = try ForeignRuns.schemas(corpus: corpus, root: "/r", only: ["onnx", "nanopb-mapp", "wkt"])
            Issue.record("an unknown name was accepted")
        } catch {
            #expect(error.description.hasPrefix("no schema named nanopb-mapp, wkt; the names are googleapis, nanopb-map, onnx, naming"))
        }
    }

    @Test func theCommandParsesRepeatedOnlyAndMutants() throws {
        let command = try ForeignCheckCommand.parse(["--only", "onnx", "--mutants", "16", "--only", "wkt"])
        #expect(command.only == ["onnx", "wkt"] && command.mutants == 16 && !command.list)
        #expect(throws: (any Error).self) { _ = try ForeignCheckCommand.parse(["--mutants", "-1"]) }
    }

    @Test func honourRowsJoinAWholeCheckAndDeviceCrashesRunWithoutTheDevice() throws {
        let folder = try scratchFolder("foreign-runs")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write("syntax = \"proto3\";\nmessage A {}\n", folder + "/plain/a.proto")
        try write("import \"nanopb.proto\";\nmessage B {}\n", folder + "/nanopb-fixed_count/b.proto")
        try write("syntax = \"proto2\";\n", folder + "/descriptor/google/protobuf/descriptor.proto")
        for name in ForeignRuns.honoured { try write("import 'google/protobuf/descriptor.proto';\n", folder + "/\(name)/c.proto") }
        let schemas = ["plain", "nanopb-fixed_count", "descriptor"].map { folder + "/" + $0 }

        let selected = ForeignRuns.runs(schemas: schemas, corpusFolder: folder, selected: true)
        #expect(selected.map(\.name) == ["nanopb-fixed_count", "descriptor", "plain"])
        #expect(selected.map(\.noDevice) == [true, false, false])
        #expect(selected.allSatisfy { !$0.honourOptions })

        let whole = ForeignRuns.runs(schemas: schemas, corpusFolder: folder, selected: false)
        #expect(whole.map(\.name) == ["nanopb-fixed_count", "descriptor", "nanopb-intsizes+honour", "nanopb-anonymous_oneof+honour", "plain"])
        let honour = whole[2]
        #expect(honour.directory == folder + "/nanopb-intsizes" && honour.honourOptions)
        #expect(honour.proveArguments(scratch: "/s", mutants: 8, json: "/j")
            == ["prove", "--proto-dir", folder + "/nanopb-intsizes", "--scratch", "/s", "--mutants", "8", "--honour-options", "--json", "/j"])
        #expect(whole[0].proveArguments(scratch: "/s", mutants: 8, json: "/j").contains("--no-device"))
    }

    @Test func aGroupRefusalMustNameTheFileAndTheGroupField() {
        let expectation = ForeignExpectation.proto2Groups
        let named = "prove: generation refused the schema: google/protobuf/test_messages_proto2.proto: "
            + "protobuf_test_messages.proto2.TestAllTypesProto2.data: proto2 groups are not supported\n"
        #expect(expectation.failure(status: 2, output: named, log: "l") == nil)
        #expect(expectation.shown(named).count == 1)
        let otherField = named.replacingOccurrences(of: ".data:", with: ".datum:")
        #expect(expectation.failure(status: 2, output: otherField, log: "l")?.hasSuffix("got exit 2 (log: l)") == true)
        let noFile = named.replacingOccurrences(of: "test_messages_proto2.proto", with: "schema")
        #expect(expectation.failure(status: 2, output: noFile, log: "l") != nil)
        let noGroup = named.replacingOccurrences(of: "groups", with: "things")
        #expect(expectation.failure(status: 2, output: noGroup, log: "l") != nil)
        #expect(expectation.failure(status: 1, output: named, log: "l") != nil)
    }

    @Test func anOptionRefusalMustNameFileFieldAndOptionOnOneLine() {
        let expectation = ForeignExpectation.optionNotHonoured
        let named = "prove: generation refused the schema: fixed_count.proto: Message1.data: fixed_count = true is not supported by the facades\n"
        #expect(expectation.failure(status: 2, output: named, log: "l") == nil)
        #expect(expectation.failure(status: 2, output: "fixed_count.proto: Message1.data: fixed_count = true\nnot supported\n", log: "l") != nil)
        #expect(expectation.failure(status: 2, output: named.replacingOccurrences(of: "Message1", with: "Message2"), log: "l") != nil)
        #expect(expectation.failure(status: 0, output: named, log: "l") != nil)
    }

    @Test func theDeviceCrashMustBeFoundOnMessage4StringsWithExitOne() {
        let expectation = ForeignExpectation.deviceCrash
        let line = "FAIL device: Message4.strings fixed_count (max_count = 4): past (3 elements): the device build crashed (signal 11)"
        #expect(expectation.failure(status: 1, output: "prove: x\n" + line + "\n", log: "l") == nil)
        #expect(expectation.shown(line) == [String(line.prefix(150))])
        #expect(expectation.failure(status: 1, output: "  " + line, log: "l") != nil)
        #expect(expectation.failure(status: 1, output: line.replacingOccurrences(of: "crashed", with: "refused it"), log: "l") != nil)
        #expect(expectation.failure(status: 2, output: line, log: "l") != nil)
    }

    @Test func aPassingProofMustCompileItsSchemaOnce() {
        let compile = "-I. --descriptor_set_out=/s/schema.pb a.proto", read = "--descriptor_set_in=/s/schema.pb --encode=A"
        #expect(ForeignCheck.compilationFailure("x", calls: "\(compile)\n\(read)\n\(read)\n", log: "l") == nil)
        #expect(ForeignCheck.compilationFailure("x", calls: "\(compile)\n\(compile)\n", log: "l")
            == "x: protoc compiled the schema 2 times, not once (calls: l)")
        #expect(ForeignCheck.compilationFailure("x", calls: "", log: "l") == "x: protoc compiled the schema 0 times, not once (calls: l)")
    }

    @Test func theProgressLineShowsTheLastVerdictOrTheLastProveLine() {
        #expect(ForeignCheck.verdictLine("prove: FAILED: a\nprove: PROVED: b\nprove: done in 3.0 s\n") == "prove: PROVED: b")
        #expect(ForeignCheck.verdictLine("prove: generation refused it\nprove: done in 1.0 s\n") == "prove: generation refused it")
        #expect(ForeignCheck.failureLines((0..<20).map { "FAIL \($0)" }.joined(separator: "\n") + "\nprove: done in 1 s").count == 15)
    }

    @Test func aPassingProofGetsItsRowAloneAndAFailedOneTheLinesThatSayWhy() {
        let passed = "prove: oracle step\nprove: PROVED: 3 of 3\nprove: done in 2.0 s\n"
        #expect(ForeignCheck.runLines("alpha", index: 1, of: 5, status: 0, seconds: 12, output: passed)
            == ["check-foreign [2/5] alpha                          exit 0 in  12s  prove: PROVED: 3 of 3"])
        let failed = "prove: oracle step\nbuilding\nFAIL a.proto row 2\nerror: the runner stopped\nprove: FAILED: 1 of 3\nprove: done in 9 s\n"
        #expect(ForeignCheck.runLines("beta", index: 0, of: 1, status: 1, seconds: 1234, output: failed) == [
            "check-foreign [1/1] beta                           exit 1 in 1234s  prove: FAILED: 1 of 3",
            "    prove: oracle step", "    FAIL a.proto row 2", "    error: the runner stopped", "    prove: FAILED: 1 of 3",
        ])
    }

    private func summary(passed: Bool, device: Bool) throws -> ProveSummary {
        let row = { (file: String, n: Int) in
            #"{"file":"\#(file)","messages":\#(n),"exemplars":\#(10 * n),"passed":\#(10 * n),"failed":0,"explained":1,"excluded":2,"#
                + #""mutantsAccepted":\#(n),"mutantsRejected":3,"mutantsFailed":0}"#
        }
        let json = #"{"protoDirectory":"/p","passed":\#(passed),"oracle":{"agreed":1,"disagreed":0,"excluded":0,"random":0},"seconds":{},"#
            + #""proof":{"rows":[\#(row("a.proto", 2)),\#(row("b.proto", 5))],"failures":[],"missing":[],"#
            + #""deviations":[{"row":3,"summary":"s","elements":4},{"row":7,"summary":"s","elements":0,"explainedExemplars":2},"#
            + #"{"row":9,"summary":"s","elements":0,"explainedExemplars":0},{"row":11,"summary":"s","elements":0}]},"#
            + (device ? "" : #""deviceSkipped":"--no-device","#) + #""error":"the proof runner stopped abnormally (status 139) and more words here"}"#
        var summary = try JSONDecoder().decode(ProveSummary.self, from: Data(json.utf8))
        if device {
            var report = DeviceProofReport()
            report.total.accepted = 40; report.total.refusedByOption = 2; report.total.truncated = 1
            report.total.limitAtAccepted = 3; report.total.limitAt = 4; report.total.limitPastRefused = 5; report.total.limitPast = 6
            summary.device = report
        }
        return summary
    }

    @Test func theTableSumsRowsAndShowsDeviationsDeviceAndVerdict() throws {
        let table = ForeignTable.render([.init(name: "alpha", summary: try summary(passed: true, device: true), seconds: 12),
                                         .init(name: "beta+honour", summary: try summary(passed: false, device: false), seconds: 7),
                                         .init(name: "gone", summary: nil, seconds: 1)])
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("schema                         files messages exemplars  passed explained excluded  mutants seconds  deviation rows"))
        #expect(lines[2] == "alpha                              2        7        70      70         2        4       13      12  "
                + "3,7                                40/2/1 at 3/4 past 5/6 PROVED")
        #expect(lines[3].hasSuffix("off                    FAILED: the proof runner stopped abnormally (status 139) and"))
        #expect(lines[4] == "gone                               0        0         0       0         0        0        0       1  "
                + "-                                  -                      FAILED: a check failed")
        #expect(lines[5] == "total                              4       14       140     140         4        8       26")
    }
}

