import ArgumentParser
import Foundation
import Testing
@testable import ProveKit

/// `wireproof conformance`: its command line, the runner build's settings and Makefile, the lines
/// it prints from a runner log, and how the two suite runs become one verdict, without building
/// or running the suite (`make conformance` does that).
@Suite struct ConformanceCommandTests {
    private let gxxOnly: (String) -> Bool = { $0 == "g++" }

    private func settings(_ environment: [String: String] = [:], isOnPath: ((String) -> Bool)? = nil) throws -> RunnerSettings {
        try RunnerSettings(root: "/tree", environment: environment, cores: 2, isOnPath: isOnPath ?? gxxOnly)
    }

    @Test func theFlagsParseAndHelpExitsZero() async throws {
        let command = try #require(try WireproofCommand.parseAsRoot(["conformance", "--facades-only", "--force"]) as? ConformanceCommand)
        #expect(command.facadesOnly && command.force && !command.runnerOnly)
        let plain = try #require(try WireproofCommand.parseAsRoot(["conformance"]) as? ConformanceCommand)
        #expect(!plain.facadesOnly && !plain.force && !plain.runnerOnly)
        #expect(await WireproofCommand.main(["conformance", "--help"]) == 0)
    }

    @Test func aWrongFlagIsAUsageErrorNamingIt() async {
        do {
            _ = try WireproofCommand.parseAsRoot(["conformance", "--facade-only"])
            Issue.record("an unknown flag parsed")
        } catch {
            #expect(WireproofCommand.fullMessage(for: error).contains("--facade-only"))
        }
        #expect(await WireproofCommand.main(["conformance", "--facade-only"]) == 2)
        #expect(await WireproofCommand.main(["conformance", "extra"]) == 2)
    }

    @Test func unsetOrEmptyVariablesGiveTheDefaults() throws {
        let expected = try settings()
        #expect(expected == RunnerSettings(source: "/tree/.deps/protobuf", output: "/tree/.build/conformance",
                                           compiler: "g++", compilerFlags: "-O1", jobs: 2))
        let empty = ["CXX": "", "CXXFLAGS": "", "JOBS": "", "PROTOBUF_SRC": "", "CONFORMANCE_OUT": ""]
        #expect(try settings(empty) == expected)
        #expect(expected.runner == "/tree/.build/conformance/conformance_test_runner")
    }

    @Test func eachVariableOverridesItsSetting() throws {
        let given = try settings(["CXX": "clang++-19", "CXXFLAGS": "-O2 -g", "JOBS": "7", "PROTOBUF_SRC": "/src/pb", "CONFORMANCE_OUT": "/out"])
        #expect(given == RunnerSettings(source: "/src/pb", output: "/out", compiler: "clang++-19", compilerFlags: "-O2 -g", jobs: 7))
    }

    @Test func clangIsTheCompilerOnlyWithoutGxxAndNeitherIsAnErrorNamingCXX() throws {
        #expect(try settings(isOnPath: { $0 == "clang++" }).compiler == "clang++")
        #expect(try settings(isOnPath: { _ in true }).compiler == "g++")
        #expect(throws: ConformanceError("no C++ compiler (g++ or clang++) on PATH; set CXX")) { try settings(isOnPath: { _ in false }) }
        #expect(try settings(["CXX": "c++"], isOnPath: { _ in false }).compiler == "c++")
    }

    @Test func jobsOutsideOneToSixtyFourOrNotANumberIsRefusedByName() throws {
        for bad in ["0", "65", "-1", "two", "2.5"] {
            #expect(throws: ConformanceError("JOBS must be a whole number from 1 to 64, not '\(bad)'")) { try settings(["JOBS": bad]) }
        }
        #expect(try settings(["JOBS": "64"]).jobs == 64)
        #expect(try RunnerSettings(root: "/tree", environment: [:], cores: 200, isOnPath: gxxOnly).jobs == 64)
    }

    @Test func aFolderWithWhiteSpaceIsRefusedBecauseMakeWouldSplitIt() {
        #expect(throws: ConformanceError.self) { try settings(["PROTOBUF_SRC": "/my src"]) }
        #expect(throws: ConformanceError.self) { try settings(["CONFORMANCE_OUT": "/out\tdir"]) }
    }

    @Test func theMakefileSpellsEverySettingAndTracksHeaders() throws {
        let text = RunnerMakefile.text(try settings(["CXX": "clang++", "CXXFLAGS": "-O3"]), protoc: "/usr/bin/protoc")
        #expect(text.contains("SRC := /tree/.deps/protobuf\n"))
        #expect(text.contains("CXX := clang++\n"))
        #expect(text.contains("CXXFLAGS := -std=c++14 -O3 -w -pthread\n"))
        #expect(text.contains("test_messages_proto3.proto /usr/bin/protoc Makefile\n"))
        #expect(text.contains("-MMD -MP"))
        #expect(text.contains("-include $(OBJS:.o=.d)"))
        // Recipes start with a tab, or make refuses the file.
        #expect(text.contains("\n\t@$(CXX) -pthread -o $@.tmp $(OBJS) $(LDLIBS) && mv $@.tmp $@\n"))
        #expect(!text.contains("\n    @"))
        // Every object depends on the Makefile, so a changed setting rebuilds everything.
        for rule in ["obj/%.o: $(CONF)/%.cc gen/.stamp Makefile", "obj/jsoncpp.o: $(CONF)/third_party/jsoncpp/jsoncpp.cpp Makefile",
                     "obj/conformance.pb.o: gen/conformance.pb.cc Makefile", "obj/%.pb.o: gen/google/protobuf/%.pb.cc Makefile"] {
            #expect(text.contains(rule + "\n"), "\(rule)")
        }
    }

    @Test func theMakefileIsRewrittenOnlyWhenItsTextChanges() throws {
        let folder = NSTemporaryDirectory() + "conformance-makefile-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = RunnerMakefile.text(try settings(), protoc: "/usr/bin/protoc")
        #expect(try RunnerMakefile.write(first, into: folder))
        #expect(try !RunnerMakefile.write(first, into: folder))
        #expect(RunnerMakefile.text(try settings(), protoc: "/usr/bin/protoc") == first)
        let changed = RunnerMakefile.text(try settings(["CXXFLAGS": "-O0"]), protoc: "/usr/bin/protoc")
        #expect(changed != first)
        #expect(try RunnerMakefile.write(changed, into: folder))
        #expect(FileManager.default.contents(atPath: folder + "/Makefile") == Data(changed.utf8))
    }

    @Test func protocAndTheSourceTreeMustDeclareTheSameVersion() {
        #expect(RunnerBuild.protocVersion("libprotoc 3.21.12\n") == "3.21.12")
        #expect(RunnerBuild.protocVersion("protoc 3.21.12") == nil)
        #expect(RunnerBuild.protocVersion("") == nil)
        let configure = "AC_PREREQ(2.59)\nAC_INIT([Protocol Buffers],[3.21.12],[protobuf@googlegroups.com],[protobuf])\n"
        #expect(RunnerBuild.sourceVersion(configureAC: configure) == "3.21.12")
        #expect(RunnerBuild.sourceVersion(configureAC: "AC_INIT([Protocol Buffers],[3.x],[a])") == nil)
        #expect(RunnerBuild.sourceVersion(configureAC: "AC_INIT([Other],[3.21.12])") == nil)
    }

    @Test func theRunnerIsToldToEnforceRecommendedTestsWithTheListAndFolder() {
        let run = SuiteRun(name: "facades", runner: "/r", host: "/h", failureList: "/l.txt", folder: "/out")
        #expect(run.arguments == ["--enforce_recommended", "--failure_list", "/l.txt", "--output_dir", "/out", "/h"])
        #expect(SuiteRun.verdictFiles == ["failing_tests.txt", "succeeding_tests.txt", "nonexistent_tests.txt"])
    }

    @Test func theExcerptKeepsFindingsThenBothSummariesPrefixedWithTheHost() {
        let log = """
            Some progress line
            ERROR, test=Required.Proto3.ProtobufInput.X: unexpected
            WARNING, test=Recommended.Y: failed
            These tests failed.  If they can't be fixed right now, you can add them to the failure list
              Required.Proto3.ProtobufInput.X
            CONFORMANCE SUITE FAILED: 562 successes, 1366 skipped, 88 expected failures, 1 unexpected failures.
            CONFORMANCE SUITE PASSED: 0 successes, 120 skipped, 0 expected failures, 0 unexpected failures.
            """
        #expect(SuiteRun.excerpt(of: log, name: "facades") == [
            "ERROR, test=Required.Proto3.ProtobufInput.X: unexpected",
            "WARNING, test=Recommended.Y: failed",
            "These tests failed.  If they can't be fixed right now, you can add them to the failure list",
            "facades: CONFORMANCE SUITE FAILED: 562 successes, 1366 skipped, 88 expected failures, 1 unexpected failures.",
            "facades: CONFORMANCE SUITE PASSED: 0 successes, 120 skipped, 0 expected failures, 0 unexpected failures.",
        ])
    }

    @Test func theExcerptsFindingsAreBoundedButItsSummariesAreNot() {
        let log = (0..<500).map { "ERROR, test=T\($0)" }.joined(separator: "\n") + "\nCONFORMANCE SUITE FAILED: x\n"
        let lines = SuiteRun.excerpt(of: log, name: "h")
        #expect(lines.count == 201)
        #expect(lines.last == "h: CONFORMANCE SUITE FAILED: x")
    }

    @Test func eitherRunFailingFailsTheCommandAndAnUnbuildablePeerHereIsSkippedWithWhy() {
        #expect(ConformanceOutcome(facades: 0, peer: .ran(0)).passed)
        #expect(!ConformanceOutcome(facades: 1, peer: .ran(0)).passed)
        #expect(!ConformanceOutcome(facades: 0, peer: .ran(1)).passed)
        #expect(!ConformanceOutcome(facades: 1, peer: .notAsked).passed)
        #expect(ConformanceOutcome(facades: 0, peer: .notAsked).passed)
        #expect(ConformanceOutcome(facades: 0, peer: .unavailable("unavailable: no network")).passed)
        #expect(!ConformanceOutcome(facades: 0, peer: .doesNotBuild("x does not build")).passed)
        #expect(ConformanceOutcome(facades: 0, peer: .ran(0)).peerLine == nil)
        #expect(ConformanceOutcome(facades: 0, peer: .unavailable("unavailable: no network")).peerLine
                == "swiftprotobuf: skipped: unavailable: no network")
        #expect(ConformanceOutcome(facades: 0, peer: .notAsked).peerLine == "swiftprotobuf: skipped: --facades-only")
    }
}
