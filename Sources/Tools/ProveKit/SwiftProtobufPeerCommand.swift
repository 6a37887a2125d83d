// `wireproof swiftprotobuf-peer`: the SwiftProtobuf peer package (Peers/SwiftProtobuf) for the make
// targets and scripts that use it; `wireproof prove` calls SwiftProtobufPeer in process instead.
// Standard output is the path of what was built (nothing for migration-sample); progress and
// errors go to standard error. Exit status: 0 done; 3 the peer is unavailable here, the last line
// of standard error ("swiftprotobuf-peer: unavailable: REASON") says why; 1 anything else.
// Environment: SWIFT (the swift driver), SWIFTPROTOBUF_PEER_CONFIG (debug, the default, or release).

import ProtoGenKit
import ArgumentParser
import Foundation

/// The peer's subcommands.
public struct SwiftProtobufPeerCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "swiftprotobuf-peer",
        abstract: "Build the SwiftProtobuf 1.38.1 peer's programs, or its code for a schema (exit 3: unavailable here).",
        subcommands: [Plugin.self, ConformanceHost.self, SizeProbe.self, CodecSpeed.self, MigrationSample.self, Generate.self])

    public init() {}

    /// Runs `work` on the peer of this tree, prints the path it returns on `out`, and turns the
    /// peer's errors into the exit statuses above, each said as one prefixed line on `err` (the
    /// line scripts read the reason from).
    static func run(out: (String) -> Void = { print($0) }, err: (String) -> Void = { printError($0) },
                    _ work: (SwiftProtobufPeer) throws -> String?) throws {
        let peer: SwiftProtobufPeer
        do { peer = SwiftProtobufPeer.fromEnvironment(root: try GenerationTools.wireproofRoot()) } catch {
            err("swiftprotobuf-peer: \(error)")
            throw ExitCode.failure
        }
        do {
            if let path = try work(peer) { out(path) }
        } catch let error as SwiftProtobufPeerError {
            err("swiftprotobuf-peer: \(error.description)")
            if case .unavailable = error { throw ExitCode(3) }
            throw ExitCode.failure
        } catch {
            err("swiftprotobuf-peer: \(error)")
            throw ExitCode.failure
        }
    }

    struct Plugin: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Build protoc-gen-swift; print its path.")
        func run() throws { try SwiftProtobufPeerCommand.run { try $0.plugin() } }
    }

    struct ConformanceHost: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conformance-host",
            abstract: "Generate conformance.proto and test_messages_proto3.proto, build swiftprotobuf-conformance-host; print its path.")
        func run() throws { try SwiftProtobufPeerCommand.run { try $0.conformanceHost() } }
    }

    struct SizeProbe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "size-probe",
            abstract: "Build Benchmarks/SizePacket/main.swift against the bundled schema's SwiftProtobuf code in release; print its path.")
        @Argument(parsing: .postTerminator, help: "Further swift build arguments after `--` (a scratch path, dead-strip flags).")
        var buildArguments: [String] = []
        func run() throws { try SwiftProtobufPeerCommand.run { try $0.sizeProbe(buildArguments: buildArguments) } }
    }

    struct CodecSpeed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "codec-speed",
            abstract: "Build codec-speed-swiftprotobuf against the bundled schema's SwiftProtobuf code in release; print its path.")
        func run() throws { try SwiftProtobufPeerCommand.run { try $0.codecSpeed() } }
    }

    struct MigrationSample: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migration-sample",
            abstract: "Build the migration sample against SwiftProtobuf, run it, and hold it to transcript.txt.")
        func run() throws { try SwiftProtobufPeerCommand.run { _ = try $0.migrationSample(); return nil } }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate a descriptor set's SwiftProtobuf code, its message registry and prove's adapter into a folder.")
        @Option(help: "A descriptor set (protoc --include_imports --descriptor_set_out).") var descriptorSet: String
        @Option(help: "The target folder to fill; files whose content did not change are left alone.") var out: String
        func run() throws {
            try SwiftProtobufPeerCommand.run { try $0.generateTarget(descriptorSet: descriptorSet, out: out); return nil }
        }
    }
}
