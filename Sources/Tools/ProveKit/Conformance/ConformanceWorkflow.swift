// `make conformance`'s steps: the runner, the facades' host in a scratch package, the suite against
// it, then the suite against the SwiftProtobuf host (Peers/SwiftProtobuf, built in this process).

import Foundation
import ProcessSupport

/// One `wireproof conformance` run over the tree at `root`. Work happens in .scratch/conformance
/// (the scratch package, the host's build in CONFORMANCE_BUILD or its .build, one folder per suite
/// run); the runner is built where `settings` says.
struct ConformanceWorkflow {
    let root: String
    let settings: RunnerSettings
    /// The swift driver (SWIFT, default `swift` on PATH).
    let swift: String
    /// The host's scratch build folder.
    let hostBuild: String

    var scratch: String { root + "/.scratch/conformance" }

    init(root: String, settings: RunnerSettings, environment: [String: String]) {
        self.root = root
        self.settings = settings
        swift = environment["SWIFT"].flatMap { $0.isEmpty ? nil : $0 } ?? "swift"
        hostBuild = environment["CONFORMANCE_BUILD"].flatMap { $0.isEmpty ? nil : $0 } ?? root + "/.scratch/conformance/.build"
    }

    /// Prints "conformance: TEXT" and flushes, so the line comes before what a child prints next.
    static func say(_ text: String) {
        print("conformance: \(text)")
        fflush(nil)  // every stream: `stdout` itself is not concurrency-safe to name in Swift 6
    }

    /// Builds the runner alone (`--runner-only`); returns its path.
    func buildRunner(force: Bool) throws(ConformanceError) -> String {
        Self.say("building conformance_test_runner")
        return try RunnerBuild(settings: settings, say: Self.say).run(force: force)
    }

    /// Every step; throws when a step before a suite run cannot finish, else returns both runs' outcome.
    func run(facadesOnly: Bool, force: Bool) throws(ConformanceError) -> ConformanceOutcome {
        let start = Date()
        let runner = try buildRunner(force: force)
        let host = try buildFacadesHost()

        Self.say("running the suite against the facades (--enforce_recommended)")
        let facades = try SuiteRun(name: "facades", runner: runner, host: host, failureList: root + "/Conformance/failure_list.txt",
                                   folder: scratch + "/facades").run(say: Self.say)
        let peer = facadesOnly ? PeerRun.notAsked : try runAgainstPeer(runner: runner)
        let outcome = ConformanceOutcome(facades: facades, peer: peer)
        if let line = outcome.peerLine { Self.say(line) }
        Self.say("finished in \(Int(Date().timeIntervalSince(start))) s")
        return outcome
    }

    /// Writes the scratch package (the facades and nanopb C of test_messages_proto3.proto and
    /// conformance.proto, the host of Conformance/Host) and builds the host; returns its path.
    private func buildFacadesHost() throws(ConformanceError) -> String {
        Self.say("generating facades for test_messages_proto3.proto and conformance.proto")
        let protobuf = settings.source
        do {
            let writer = try ScratchPackageCommand.parse([
                "--dir", scratch, "--name", "ConformanceProtos", "--include", protobuf + "/src", "--include", protobuf + "/conformance",
                "--executable", "ConformanceHost=\(root)/Conformance/Host", "google/protobuf/test_messages_proto3.proto", "conformance.proto",
            ])
            try writer.run()
        } catch {
            throw ConformanceError("cannot write the scratch package: \(ScratchPackageCommand.message(for: error))")
        }
        Self.say("building the host")
        let log = scratch + "/build.log"
        let status: Int32
        do {
            status = try ChildProcess.runIntoLog(swift, ["build", "--package-path", scratch, "--scratch-path", hostBuild, "--product", "ConformanceHost"], log: log)
        } catch {
            throw ConformanceError("cannot run \(swift): \(error)")
        }
        guard status == 0 else {
            let text = (try? ChildProcess.readFile(log)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            for line in text.split(separator: "\n").filter({ $0.contains("error") || $0.contains("warning") }).prefix(40) {
                FileHandle.standardError.write(Data("\(line)\n".utf8))
            }
            throw ConformanceError("the host does not build (log: \(log))")
        }
        return hostBuild + "/debug/ConformanceHost"
    }

    /// Builds the SwiftProtobuf host in this process and runs the suite against it.
    private func runAgainstPeer(runner: String) throws(ConformanceError) -> PeerRun {
        Self.say("building the SwiftProtobuf host (Peers/SwiftProtobuf; the first build compiles SwiftProtobuf)")
        let host: String
        do {
            host = try SwiftProtobufPeer.fromEnvironment(root: root).conformanceHost()
        } catch SwiftProtobufPeerError.unavailable(let why) {
            return .unavailable("unavailable: \(why)")
        } catch {
            return .doesNotBuild("\(error)")
        }
        Self.say("running the suite against SwiftProtobuf 1.38.1 (--enforce_recommended)")
        return .ran(try SuiteRun(name: "swiftprotobuf", runner: runner, host: host,
                                 failureList: root + "/Conformance/swiftprotobuf_failure_list.txt",
                                 folder: scratch + "/swiftprotobuf").run(say: Self.say))
    }
}
