import ArgumentParser
import Foundation
import Testing
@testable import MutationKit

/// `wiremutate plant-legs`: which leg must report which plant, when a leg counts as having caught
/// it, and the run itself over a small tree with stand-in legs.
@Suite struct PlantLegsTests {
    @Test func eachSanitizerPlantFacesTheLegsThatMustReportIt() {
        #expect(PlantLegs.plants == ["leak", "oob-typed", "oob-raw", "race", "nanopb"])
        #expect(PlantLegs.legs(for: "leak") == [.asan, .valgrind, .accounting])
        #expect(PlantLegs.legs(for: "oob-typed") == [.asan, .valgrind])
        #expect(PlantLegs.legs(for: "oob-raw") == [.asan, .valgrind])
        #expect(PlantLegs.legs(for: "nanopb") == [.asan, .valgrind])
        #expect(PlantLegs.legs(for: "race") == [.tsan])
        #expect(PlantLegs.legs(for: "no-length-bound").isEmpty)
        #expect(PlantLeg.tsan.command.contains("--no-parallel --filter ConcurrencyStressTests"))
        #expect(PlantLeg.asan.command == "bash scripts/sanitize.sh asan --filter NanopbRuntimeTests")
    }

    @Test func eachLegWantsItsToolsOwnReport() {
        #expect(PlantLeg.asan.report(for: "leak") == "ERROR: LeakSanitizer: detected memory leaks")
        #expect(PlantLeg.asan.report(for: "oob-raw") == "ERROR: AddressSanitizer: heap-buffer-overflow")
        #expect(PlantLeg.valgrind.report(for: "nanopb") == "Invalid write of size")
        #expect(PlantLeg.valgrind.report(for: "oob-typed") == "Invalid read of size")
        let lost = PlantLeg.valgrind.report(for: "leak")
        #expect(PlantLegs.firstMatch(of: lost, in: "==1== definitely lost: 0 bytes in 0 blocks") == nil)
        #expect(PlantLegs.firstMatch(of: lost, in: "==1== definitely lost: 48 bytes in 3 blocks") == "definitely lost: 4")
        let live = PlantLeg.accounting.report(for: "leak")
        #expect(PlantLegs.firstMatch(of: live, in: "Expectation failed: live allocations 3 -> 6") == "live allocations 3 -> 6")
    }

    @Test func aLegCatchesItsPlantOnlyWhenItFailsWithTheReport() {
        let report = "WARNING: ThreadSanitizer: data race"
        let log = "test run\n" + report + " (pid=7)\n"
        #expect(PlantLegs.verdict(outcome: .failed, log: log, report: report) == .caught(report: report))
        #expect(!PlantLegs.verdict(outcome: .failed, log: "Expectation failed", report: report).isCaught)
        #expect(!PlantLegs.verdict(outcome: .ok, log: log, report: report).isCaught)
        #expect(!PlantLegs.verdict(outcome: .timeout, log: log, report: report).isCaught)
        #expect(PlantLegs.row(plant: "race", leg: .tsan, seconds: 17, verdict: .caught(report: report))
            == "race       tsan          17s  caught (report: WARNING: ThreadSanitizer: data race)")
    }

    @Test func theCommandParsesPlantsAndLegsAndNamesAWrongLeg() throws {
        let command = try #require(try MutateCommand.parseAsRoot(["plant-legs", "leak", "race", "--leg", "asan"]) as? PlantLegsCommand)
        #expect(command.names == ["leak", "race"])
        #expect(try command.chosenLegs() == [.asan])
        #expect(command.legLimit == 3600)
        do {
            _ = try MutateCommand.parseAsRoot(["plant-legs", "--leg", "msan"])
            Issue.record("an unknown leg parsed")
        } catch {
            #expect(MutateCommand.fullMessage(for: error).contains("unknown leg 'msan'"))
        }
        do {
            _ = try MutateCommand.parseAsRoot(["plant-legs", "--help"])
        } catch {
            #expect(MutateCommand.exitCode(for: error) == .success)
        }
    }

    /// A repository with a planting target, a stand-in setup.sh and its plants.txt.
    func repository() throws -> String {
        let root = NSTemporaryDirectory() + "plant-legs-" + UUID().uuidString
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/scripts/mutation", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/src", withIntermediateDirectories: true)
        // What setup.sh unpacks, copied into the copy (private .deps); the scratch folder is ignored.
        try fm.createDirectory(atPath: root + "/.deps/nanopb", withIntermediateDirectories: true)
        try "/* nanopb */\n".write(toFile: root + "/.deps/nanopb/pb.h", atomically: true, encoding: .utf8)
        try ".deps/\n.scratch/\n".write(toFile: root + "/.gitignore", atomically: true, encoding: .utf8)
        try "#!/bin/bash\ntrue\n".write(toFile: root + "/scripts/setup.sh", atomically: true, encoding: .utf8)
        try "keep()\nrelease()\n".write(toFile: root + "/src/box.txt", atomically: true, encoding: .utf8)
        try ("plant leak src/box.txt  the box is never released\n-release()\n+skip()\nplant same src/box.txt  changes nothing\n-keep()\n+keep()\n"
             + "plant gone src/box.txt  its line is not there\n-vanished()\n+skip()\n")
            .write(toFile: root + "/scripts/mutation/plants.txt", atomically: true, encoding: .utf8)
        _ = try ScratchTree.output("/usr/bin/git", ["init", "-q"], in: root)
        return root
    }

    @Test func aRunPassesWhenEveryLegFailsWithItsReportAndUndoesThePlant() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The stand-in leg reports a leak, and fails, only while the plant is in place.
        let leaking = "if grep -q skip src/box.txt; then echo 'ERROR: LeakSanitizer: detected memory leaks'; exit 1; fi; echo clean"
        var run = PlantLegsRun(root: root, scratch: root + "/.scratch/plant", plan: [(plant: "leak", legs: [.asan])])
        run.command = { _ in leaking }
        run.say = { _ in }
        let caught = try run.run()
        #expect(caught.allCaught)
        #expect(caught.rows.count == 1 && caught.rows[0].contains("caught (report: ERROR: LeakSanitizer: detected memory leaks)"))
        #expect(try String(contentsOfFile: run.tree + "/src/box.txt", encoding: .utf8) == "keep()\nrelease()\n")
        #expect(try String(contentsOfFile: run.logs + "/summary.txt", encoding: .utf8).contains("leak       asan"))

        // A plant that edits nothing: the leg passes, so the run does not.
        var same = PlantLegsRun(root: root, scratch: root + "/.scratch/plant", plan: [(plant: "same", legs: [.asan])])
        same.command = { _ in leaking }
        same.say = { _ in }
        let missed = try same.run()
        #expect(!missed.allCaught)
        #expect(missed.rows[0].contains("NOT CAUGHT (the leg passed)"))
    }

    /// A leg that leaves no log to read (here it removes its own) is judged on an empty log, so it
    /// fails without its report: not a catch, and no stop of the run.
    @Test func aLegWhoseLogIsGoneIsJudgedAsFailingWithoutItsReport() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var run = PlantLegsRun(root: root, scratch: root + "/.scratch/plant", plan: [(plant: "leak", legs: [.asan])])
        let log = run.logs + "/leak-asan.log"
        run.command = { _ in "echo 'ERROR: LeakSanitizer: detected memory leaks'; rm -f '\(log)'; exit 1" }
        run.say = { _ in }
        let result = try run.run()
        #expect(!result.allCaught)
        #expect(result.rows.count == 1 && result.rows[0].contains("NOT CAUGHT (the leg failed, but its log has no '"), "\(result.rows)")
        #expect(!FileManager.default.fileExists(atPath: log))
    }

    @Test func aLegsLogIsEmptiedFirstSoAReportFromAnEarlierRunIsNotCountedAgain() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var first = PlantLegsRun(root: root, scratch: root + "/.scratch/plant", plan: [(plant: "leak", legs: [.asan])])
        first.command = { _ in "echo 'ERROR: LeakSanitizer: detected memory leaks'; exit 1" }
        first.say = { _ in }
        #expect(try first.run().allCaught)
        // The same plant and leg again, into the same log: this time the leg fails without the report.
        var again = first
        again.command = { _ in "echo 'a build error'; exit 1" }
        let result = try again.run()
        #expect(!result.allCaught && result.rows[0].contains("NOT CAUGHT (the leg failed, but its log has no '"), "\(result.rows)")
        let log = try String(contentsOfFile: again.logs + "/leak-asan.log", encoding: .utf8)
        #expect(log.contains("a build error") && !log.contains("LeakSanitizer"), "\(log)")
    }

    @Test func oneLegThatMissesFailsTheRunWhateverTheLegsAfterItDo() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let leaking = "if grep -q skip src/box.txt; then echo 'ERROR: LeakSanitizer: detected memory leaks'; exit 1; fi; echo clean"
        var run = PlantLegsRun(root: root, scratch: root + "/.scratch/plant", plan: [(plant: "same", legs: [.asan]), (plant: "leak", legs: [.asan])])
        run.command = { _ in leaking }
        var said: [String] = []
        run.say = { said.append($0) }
        let result = try run.run()
        #expect(!result.allCaught, "the first plant was missed, the second caught: the run fails")
        #expect(result.rows.count == 2)
        #expect(result.rows[0].hasPrefix("same       asan") && result.rows[0].contains("NOT CAUGHT (the leg passed)"))
        #expect(result.rows[1].hasPrefix("leak       asan") && result.rows[1].contains("caught (report: ERROR: LeakSanitizer"))
        let logs = run.logs
        #expect(said == ["plant-legs: copying the working tree to \(run.tree) (its own .build folders are kept between runs)",
                         "plant-legs: same -> asan (log \(logs)/same-asan.log)", "plant-legs: " + result.rows[0],
                         "plant-legs: leak -> asan (log \(logs)/leak-asan.log)", "plant-legs: " + result.rows[1]])
        #expect(try String(contentsOfFile: logs + "/summary.txt", encoding: .utf8)
                == "\nPlanted bugs:\n  " + result.rows[0] + "\n  " + result.rows[1] + "\n")
        #expect(try String(contentsOfFile: logs + "/leak-asan.log", encoding: .utf8).contains("ERROR: LeakSanitizer"))
    }

    @Test func aPlantWhoseLinesAreGoneIsReportedAndTheRunGoesOnAndFails() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var run = PlantLegsRun(root: root, scratch: root + "/.scratch/plant", plan: [(plant: "gone", legs: [.asan]), (plant: "leak", legs: [.asan])])
        run.command = { _ in "if grep -q skip src/box.txt; then echo 'ERROR: LeakSanitizer: detected memory leaks'; exit 1; fi" }
        run.say = { _ in }
        let result = try run.run()
        #expect(!result.allCaught)
        #expect(result.rows.count == 2)
        #expect(result.rows[0] == "gone       cannot be planted: gone: its lines are in src/box.txt 0 times, not once (the code changed?)")
        #expect(result.rows[1].contains("caught (report:"))
    }

    @Test func anUnknownPlantStopsTheRunWithStatusTwo() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var run = PlantLegsRun(root: root, scratch: root + "/.scratch/plant", plan: [(plant: "no-such-plant", legs: [.asan])])
        run.say = { _ in }
        #expect(throws: PlantError("unknown plant 'no-such-plant'", status: 2)) { try run.run() }
    }
}
