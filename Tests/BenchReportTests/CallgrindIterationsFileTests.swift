// What each callgrind run of the ratio step leaves for the report: `callgrind_annotate` asked for
// inclusive costs of every function, and one "NAME ITERATIONS" line appended per run to the
// shared `iterations` file, which is created by the first run. The valgrind run is of a tiny
// executable linked by binutils, so it takes some 60 ms.

import Foundation
import Testing
@testable import BenchReport

@Suite struct CallgrindIterationsFileTests {
    @Test func annotateListsInclusiveCostsOfEveryFunction() {
        #expect(CallgrindRun.annotateCommand("w/c-chat.out") == ["callgrind_annotate", "--inclusive=yes", "--threshold=100", "w/c-chat.out"])
    }

    @Test func eachRunAppendsItsIterationLineAndTheFirstCreatesTheFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let runs = CallgrindRun.plan(codecBench: "b", descriptorSet: "d", codecC: "c", full: "f", lite: "l", swiftProtobuf: nil,
                                     work: folder.path, chatIterations: 300, metricsIterations: 30)
        for run in runs.prefix(3) { try CallgrindRun.append(run.iterationsLine, toFileAt: folder.path + "/iterations") }
        #expect(try folder.read("iterations") == "facade-chat 300\nc-chat 300\nfull-chat 300\n")
    }

    @Test func aRunUnderValgrindLeavesItsAnnotatedListingAndItsIterationLine() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try ProbeObjects.link(status: 0, to: folder.path + "/codec")
        let run = CallgrindRun(name: "c-chat", packet: "chat", iterations: 3, toggles: CallgrindRun.cToggles,
                               command: [folder.path + "/codec", folder.path + "/chat.bin", "3"], work: folder.path)
        try run.execute()
        #expect(try folder.read("c-chat.txt").contains("PROGRAM TOTALS"))
        #expect(try folder.read("iterations") == "c-chat 3\n")
    }
}
