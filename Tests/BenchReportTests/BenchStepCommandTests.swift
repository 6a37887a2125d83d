import Foundation
import Testing
@testable import BenchReport

/// The command lines and files the bench steps make, without running any of them.
@Suite struct BenchStepCommandTests {
    @Test func theLiteCopyPutsTheOptionOnItsOwnLineBeforeTheFirstPackageLine() {
        let proto = "syntax = \"proto3\";\n// package is not this one\npackage rtm;\nmessage A {}\npackage again;\n"
        #expect(LibprotobufPrograms.liteCopy(of: proto)
                == "syntax = \"proto3\";\n// package is not this one\noption optimize_for = LITE_RUNTIME;\npackage rtm;\nmessage A {}\npackage again;\n")
        #expect(LibprotobufPrograms.liteCopy(of: "syntax = \"proto3\";\nmessage A {}\n") == nil)
    }

    @Test func theLibprotobufProgramsCompileEveryGeneratedSourceAgainstTheirOwnLibrary() {
        let p = LibprotobufPrograms(folder: "/c", protos: ["rtm/common.proto", "rtm/data.proto"])
        #expect(p.fullProtocCommand == ["protoc", "-I.", "-I/usr/include", "--cpp_out=/c/full", "rtm/common.proto", "rtm/data.proto"])
        #expect(p.liteProtocCommand == ["protoc", "-I.", "--cpp_out=/c/lite", "rtm/common.proto", "rtm/data.proto",
                                        "google/protobuf/timestamp.proto"])
        #expect(p.fullCompileCommand == ["g++", "-std=c++17", "-O2", "-I/c/full", "-o", "/c/CodecCppFull",
                                         "Benchmarks/CodecCpp/codec_cpp.cc", "/c/full/rtm/common.pb.cc", "/c/full/rtm/data.pb.cc",
                                         "-lprotobuf", "-lpthread"])
        #expect(p.liteCompileCommand == ["g++", "-std=c++17", "-O2", "-I/c/lite", "-o", "/c/CodecCppLite",
                                         "Benchmarks/CodecCpp/codec_cpp.cc", "/c/lite/rtm/common.pb.cc", "/c/lite/rtm/data.pb.cc",
                                         "/c/lite/google/protobuf/timestamp.pb.cc", "-lprotobuf-lite", "-lpthread"])
    }

    @Test func aLiteProgramLinkingTheFullLibraryIsCaught() {
        #expect(LibprotobufPrograms.linksFullLibrary(lddOutput: "\tlibprotobuf.so.32 => /usr/lib/x/libprotobuf.so.32 (0x1)\n"))
        #expect(!LibprotobufPrograms.linksFullLibrary(lddOutput: "\tlibprotobuf-lite.so.32 => /usr/lib/x/libprotobuf-lite.so.32 (0x1)\n"))
    }

    static func plan(swiftProtobuf: String? = "/w/sp") -> [CallgrindRun] {
        CallgrindRun.plan(codecBench: "/o/CodecBench.nodebug", descriptorSet: "/o/rtm.pb", codecC: "/w/CodecC.nodebug",
                          full: "/c/CodecCppFull", lite: "/c/CodecCppLite", swiftProtobuf: swiftProtobuf, work: "/w",
                          chatIterations: 300, metricsIterations: 30)
    }

    @Test func onlyTheFacadeAndPlainCRunsCollectInsideTheirLoops() {
        let runs = Self.plan()
        #expect(runs.map(\.name) == ["facade-chat", "c-chat", "full-chat", "lite-chat", "swiftprotobuf-chat",
                                     "facade-metrics", "c-metrics", "full-metrics", "lite-metrics", "swiftprotobuf-metrics"])
        #expect(runs[0].valgrindCommand == ["valgrind", "--tool=callgrind", "--toggle-collect=$s10CodecBench16loopFacade*",
                                            "--callgrind-out-file=/w/facade-chat.out",
                                            "/o/CodecBench.nodebug", "count", "/o/rtm.pb", "chat", "300"])
        #expect(runs[1].valgrindCommand == ["valgrind", "--tool=callgrind", "--toggle-collect=loop_decode",
                                            "--toggle-collect=loop_encode", "--callgrind-out-file=/w/c-chat.out",
                                            "/w/CodecC.nodebug", "/w/chat.bin", "300"])
        #expect(runs[8].valgrindCommand == ["valgrind", "--tool=callgrind", "--callgrind-out-file=/w/lite-metrics.out",
                                            "/c/CodecCppLite", "/w/metrics.bin", "30"])
        #expect(runs.filter { !$0.toggles.isEmpty }.map(\.name) == ["facade-chat", "c-chat", "facade-metrics", "c-metrics"])
    }

    @Test func theIterationsFileNamesEveryRunWithItsOwnCount() {
        #expect(Self.plan().map(\.iterationsLine).joined() == """
            facade-chat 300
            c-chat 300
            full-chat 300
            lite-chat 300
            swiftprotobuf-chat 300
            facade-metrics 30
            c-metrics 30
            full-metrics 30
            lite-metrics 30
            swiftprotobuf-metrics 30

            """)
        #expect(Self.plan(swiftProtobuf: nil).count == 8)
    }

    @Test func thePrunedProbesImportTheirPrunedModuleAndNothingElseChanges() {
        let source = "import Foundation\nimport BundledProto\nlet x = 1 // import BundledProto\n"
        #expect(ScratchPackage.retargeted(source, to: "PrunedOne") == "import Foundation\nimport PrunedOne\nlet x = 1 // import BundledProto\n")
    }

    @Test func aFailedStepShowsTheTailOfItsLog() throws {
        let log = NSTemporaryDirectory() + "bench-step-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        try (1...30).map { "line \($0)" }.joined(separator: "\n").appending("\n").write(toFile: log, atomically: true, encoding: .utf8)
        let error = BenchRunError.failed("release build (default) failed", log: log, lines: 3)
        #expect(error == .stepFailed(what: "release build (default) failed", logTail: "line 28\nline 29\nline 30"))
        #expect(error.description == "line 28\nline 29\nline 30\nrelease build (default) failed")
        #expect(BenchRunError.failed("x", log: log + ".missing").description == "x")
    }
}
