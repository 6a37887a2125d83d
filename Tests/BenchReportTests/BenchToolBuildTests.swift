// The tools a bench run builds on first use and the header line of a run, with a stand-in for
// `swift` (a /bin/sh script logging its arguments): each product is built once into the tool
// scratch path and found under `--show-bin-path`; WIREPROOF_TOOL replaces the built wireproof for
// the peer; the header names the day, commit, Swift version, cores and load.

import Foundation
import Testing
@testable import BenchReport

@Suite struct BenchToolBuildTests {
    /// A scratch folder holding `swift`: it appends its arguments to `calls` and answers
    /// `--show-bin-path` and `--version` as SwiftPM and swiftc do.
    static func standInSwift() throws -> ScratchFolder {
        let folder = try ScratchFolder()
        try folder.write("""
            #!/bin/sh
            echo "$*" >> "\(folder.path)/calls"
            case "$*" in
              *--show-bin-path*) echo "\(folder.path)/bin" ;;
              --version) printf 'Swift version 6.3.1 (swift-6.3.1-RELEASE)\\nTarget: x86_64-unknown-linux-gnu\\n' ;;
            esac
            exit 0

            """, to: "swift", mode: 0o755)
        return folder
    }

    @Test func eachToolIsBuiltOnceIntoTheToolScratchPathAndFoundUnderTheBinPath() throws {
        let folder = try Self.standInSwift()
        defer { folder.remove() }
        let settings = try BenchSettings(environment: ["SWIFT": folder.path + "/swift", "BENCH_TMP": folder.path + "/tmp"])
        try FileManager.default.createDirectory(atPath: settings.out, withIntermediateDirectories: true)
        let tools = BenchTools(settings, root: "/the/tree")
        #expect(tools.peerEnvironment == ["WIREPROOF_ROOT": "/the/tree"])
        #expect(try tools.protogen == [folder.path + "/bin/protogen"])
        #expect(try tools.protogen == [folder.path + "/bin/protogen"])
        #expect(try tools.peerTool() == [folder.path + "/bin/wireproof"])
        let scratch = settings.toolScratch
        #expect(try folder.read("calls") == """
            build --scratch-path \(scratch) --product protogen
            build --scratch-path \(scratch) --show-bin-path
            build --scratch-path \(scratch) --product wireproof
            build --scratch-path \(scratch) --show-bin-path

            """)
    }

    @Test func aGivenWireproofToolIsThePeersToolAndNothingIsBuilt() throws {
        let folder = try Self.standInSwift()
        defer { folder.remove() }
        let settings = try BenchSettings(environment: ["SWIFT": folder.path + "/swift", "BENCH_TMP": folder.path + "/tmp",
                                                       "WIREPROOF_TOOL": "/opt/wireproof"])
        #expect(try BenchTools(settings, root: "/r").peerTool() == ["/opt/wireproof"])
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/calls"))
    }

    @Test func aFailingBuildNamesTheProductAndTheScratchPath() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write("#!/bin/sh\necho cannot build\nexit 1\n", to: "swift", mode: 0o755)
        let settings = try BenchSettings(environment: ["SWIFT": folder.path + "/swift", "BENCH_TMP": folder.path + "/tmp"])
        try FileManager.default.createDirectory(atPath: settings.out, withIntermediateDirectories: true)
        #expect(throws: BenchRunError.stepFailed(what: "protogen does not build (scratch path \(settings.toolScratch))",
                                                 logTail: "cannot build")) {
            try BenchTools(settings, root: "/r").protogen
        }
    }

    @Test func theHeaderNamesTheSwiftVersionWithoutItsBuildAndFallsBackWhenSwiftCannotRun() throws {
        let folder = try Self.standInSwift()
        defer { folder.remove() }
        let header = BenchRun.header(settings: try BenchSettings(environment: ["SWIFT": folder.path + "/swift"]))
        let pattern = #"^Measured \d{4}-\d{2}-\d{2} at commit ([0-9a-f]{4,}|\?) \(plus any uncommitted changes\), "#
            + #"Swift version 6\.3\.1, \d+ cores \(shared; load average \d+\.\d+ at start\)\.$"#
        #expect(header.range(of: pattern, options: .regularExpression) != nil, "\(header)")
        let fallback = BenchRun.header(settings: try BenchSettings(environment: ["SWIFT": folder.path + "/missing-swift"]))
        #expect(fallback.contains("changes), Swift ?, "), "\(fallback)")
    }
}
