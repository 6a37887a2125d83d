import Foundation
import Testing
@testable import MutationKit

@Suite struct StepRunnerTests {
    func runner() -> (StepRunner, String) {
        let folder = NSTemporaryDirectory() + "mutation-steps-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/log", contents: Data())
        return (StepRunner(directory: folder, logfile: folder + "/log"), folder)
    }

    @Test func aStepRunsInTheCopyWithItsOutputInTheLogAndItsStatusAsTheOutcome() throws {
        let (steps, folder) = runner()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(steps.run("pwd; echo \"ci=[$CI] mutation=$WIREPROOF_MUTATION\"", limit: 30) == .ok)
        #expect(steps.run("exit 3", limit: 30) == .failed)
        let log = try String(contentsOfFile: folder + "/log", encoding: .utf8)
        #expect(log.contains("\(folder)\n") && log.contains("ci=[] mutation=1"))
    }

    @Test func aStepOutOfTimeIsRetriedOnceWithTwiceTheLimitThenTimesOut() throws {
        let (steps, folder) = runner()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let started = Date()
        #expect(steps.run("sleep 30", limit: 0.5, retryTimeout: true) == .timeout)
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 1.5 && elapsed < 10)  // 0.5 s, then 1 s
        #expect(try String(contentsOfFile: folder + "/log", encoding: .utf8).contains("once more with 1 s"))
    }

    @Test func aTimedOutStepsWholeSessionIsKilledEvenAChildInAGroupOfItsOwn() throws {
        let (steps, folder) = runner()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // As swift test does: the child leaves the shell's process group (not its session).
        #expect(steps.run("perl -e 'setpgrp(0, 0); open(my $f, \">\", \"pid\"); print $f $$; close $f; sleep 300' & sleep 300",
                          limit: 2) == .timeout)
        let pid = try #require(Int32(try String(contentsOfFile: folder + "/pid", encoding: .utf8)))
        var alive = true
        for _ in 0..<50 where alive {  // the orphan is reaped by init once killed
            let state = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            alive = state.map { !$0.contains(") Z ") } ?? false
            if alive { usleep(100_000) }
        }
        #expect(!alive)
    }
}
