// The ratio step's first checks, with a /bin/sh stand-in for the debug-stripped CodecBench: its
// folders are made, a failing `dump` stops the step, a missing CodecC is named before anything
// is measured, and CodecC is stripped of debug info before callgrind sees it.

import Foundation
import Testing
@testable import BenchReport

@Suite struct RatioStepPreconditionTests {
    /// Settings under a fresh BENCH_TMP with CodecBench.nodebug running `dumpScript`, and CodecC
    /// holding `codecC` when given (a script, which strip refuses as no object file).
    static func stage(dumpScript: String, codecC: String? = nil) throws -> (ScratchFolder, BenchSettings) {
        let folder = try ScratchFolder()
        let settings = try BenchSettings(environment: ["BENCH_TMP": folder.path + "/tmp"])
        let relative = { (path: String) in String(path.dropFirst(folder.path.count + 1)) }
        try folder.write("#!/bin/sh\n" + dumpScript, to: relative(CodecTimingStep.codecBenchWithoutDebugInfo(settings)), mode: 0o755)
        if let codecC { try folder.write(codecC, to: relative(settings.releaseBuild(.default) + "/release/CodecC"), mode: 0o755) }
        return (folder, settings)
    }

    static func stepFailure(_ settings: BenchSettings) -> BenchRunError? {
        do {
            try RatioStep.run(settings, tools: BenchTools(settings, root: "/r"))
            return nil
        } catch {
            return error as? BenchRunError
        }
    }

    @Test func aFailingDumpStopsTheStepWithItsLogAfterMakingTheFolders() throws {
        let (folder, settings) = try Self.stage(dumpScript: "echo 'cannot read rtm.pb'\nexit 1\n")
        defer { folder.remove() }
        #expect(Self.stepFailure(settings) == .stepFailed(what: "CodecBench dump failed", logTail: "cannot read rtm.pb"))
        #expect(FileManager.default.fileExists(atPath: settings.cppFolder))
    }

    @Test func aMissingCodecCIsNamedBeforeAnythingIsMeasured() throws {
        let (folder, settings) = try Self.stage(dumpScript: "echo \"$@\" > \"$(dirname \"$0\")/dump-args\"\n")
        defer { folder.remove() }
        let codecC = settings.releaseBuild(.default) + "/release/CodecC"
        #expect(Self.stepFailure(settings) == .stepFailed(what: "\(codecC) missing (the release build makes it)", logTail: ""))
        #expect(try String(contentsOfFile: settings.out + "/dump-args", encoding: .utf8)
                == "dump \(settings.out)/rtm.pb \(settings.ratiosWork)\n")
    }

    @Test func codecCIsStrippedOfDebugInfoBeforeUse() throws {
        let (folder, settings) = try Self.stage(dumpScript: "exit 0\n", codecC: "#!/bin/sh\nexit 0\n")
        defer { folder.remove() }
        guard case .stepFailed(let what, _)? = Self.stepFailure(settings) else { Issue.record("the step did not fail"); return }
        #expect(what == "strip -g of CodecC failed")
    }
}
