// `wireproof conformance`: Google's conformance suite (protobuf 3.21.12, from Debian's source
// package) run against the facades as an outside peer, and against the SwiftProtobuf 1.38.1 host,
// so both result lines come from one run (`make conformance`). The steps are in ConformanceWorkflow.
// Exit status: 0 both runs passed (or the peer was skipped); 1 a run failed or a step could not
// finish (its reason on standard error as "conformance: ..."); 2 a usage error.

import ProtoGenKit
import ArgumentParser
import Foundation
import ProcessSupport

/// `wireproof conformance`.
public struct ConformanceCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Google's conformance suite against the facades and the SwiftProtobuf host (make conformance).",
        discussion: """
            Builds conformance_test_runner from .deps/protobuf (make setup) against the system \
            libprotobuf with a generated Makefile (incremental: nothing changed, nothing compiled), \
            writes and builds the facades' host in .scratch/conformance, runs the suite with \
            --enforce_recommended and Conformance/failure_list.txt, then against the SwiftProtobuf \
            host with Conformance/swiftprotobuf_failure_list.txt (skipped, with the reason, when that \
            peer cannot be built here). A run fails on any failure not listed, a listed test that \
            passes, and a listed test that does not exist.

            Environment: CXX (default g++, else clang++), CXXFLAGS (default -O1), JOBS (make -j, \
            default one per core), PROTOBUF_SRC (default .deps/protobuf), CONFORMANCE_OUT (the \
            runner's build folder, default .build/conformance), CONFORMANCE_BUILD (the host's scratch \
            build folder, default .scratch/conformance/.build), SWIFT, SWIFTPROTOBUF_PEER_CONFIG.
            """)

    @Flag(name: .customLong("facades-only"), help: "Skip the run against the SwiftProtobuf host.") var facadesOnly = false
    @Flag(help: "Compile the runner again from nothing (its gen/, obj/ and executable are removed first).") var force = false
    @Flag(name: .customLong("runner-only"), help: "Build conformance_test_runner and stop.") var runnerOnly = false

    public init() {}

    public func run() throws {
        do {
            let root = try GenerationTools.wireproofRoot()
            let environment = ProcessInfo.processInfo.environment
            let settings = try RunnerSettings(root: root, environment: environment, cores: ProcessInfo.processInfo.activeProcessorCount,
                                              isOnPath: { ChildProcess.executableOnPath($0) != nil })
            let workflow = ConformanceWorkflow(root: root, settings: settings, environment: environment)
            if runnerOnly {
                _ = try workflow.buildRunner(force: force)
                return
            }
            guard try workflow.run(facadesOnly: facadesOnly, force: force).passed else { throw ExitCode.failure }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("conformance: \(error)")
            throw ExitCode.failure
        }
    }
}
