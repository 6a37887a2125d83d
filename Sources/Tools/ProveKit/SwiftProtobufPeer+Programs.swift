// The peer package's programs: protoc-gen-swift itself, the conformance host (make conformance), the
// size probe and speed program (make bench), and the migration sample (make migration-sample). Each
// returns the path of what it built.

import Foundation
import ProcessSupport

extension SwiftProtobufPeer {
    /// protoc-gen-swift, built.
    func plugin() throws -> String {
        try locked { try build("protoc-gen-swift") }
    }

    /// conformance.proto and test_messages_proto3.proto (Debian's protobuf source in .deps/protobuf)
    /// through protoc-gen-swift, and swiftprotobuf-conformance-host built against them.
    func conformanceHost() throws -> String {
        let source = root + "/.deps/protobuf"
        guard FileManager.default.fileExists(atPath: source + "/conformance/conformance.proto") else {
            throw SwiftProtobufPeerError.failed("no \(source)/conformance: run make setup")
        }
        return try locked {
            let staging = logs + "/staging-conformance"
            try runProtocGenSwift(into: staging, ["-I", source + "/conformance", "-I", source + "/src",
                                                  "conformance.proto", "google/protobuf/test_messages_proto3.proto"])
            try GeneratedFolderSync.sync(from: staging, to: generated + "/ConformanceMessages")
            return try build("swiftprotobuf-conformance-host")
        }
    }

    /// The bundled schema through protoc-gen-swift and Benchmarks/SizePacket/main.swift built against
    /// it in release, with `buildArguments` (make bench: a scratch path, dead-strip flags).
    /// protoc-gen-swift itself stays in `configuration`.
    func sizeProbe(buildArguments: [String]) throws -> String {
        try locked {
            try generateBundled()
            let staging = logs + "/staging-size-packet"
            try? FileManager.default.removeItem(atPath: staging)
            try copySwappingImport(root + "/Benchmarks/SizePacket/main.swift", into: staging)
            try GeneratedFolderSync.sync(from: staging, to: generated + "/SizePacket")
            return try build("size-packet-swiftprotobuf", configuration: "release", extra: buildArguments)
        }
    }

    /// The bundled schema through protoc-gen-swift and codec-speed-swiftprotobuf built against it in
    /// release (make bench's speed rows).
    func codecSpeed() throws -> String {
        try locked {
            try generateBundled()
            return try build("codec-speed-swiftprotobuf", configuration: "release")
        }
    }

    /// The migration sample (Tests/MigrationSampleTests/MovingFromSwiftProtobuf.swift) built against
    /// protoc-gen-swift's code for the bundled schema and run: fails unless it prints
    /// Tests/MigrationSampleTests/transcript.txt, the text MigrationSampleTests holds the facades'
    /// build of the same file to. Returns the program's path.
    func migrationSample() throws -> String {
        let sample = root + "/Tests/MigrationSampleTests"
        let program: String = try locked {
            try generateBundled()
            let staging = logs + "/staging-migration-sample"
            try? FileManager.default.removeItem(atPath: staging)
            try copySwappingImport(sample + "/MovingFromSwiftProtobuf.swift", into: staging)
            let main = "// Written by `wireproof swiftprotobuf-peer migration-sample`: prints the migration sample's transcript.\n"
                + "for line in movingFromSwiftProtobufTranscript() { print(line) }\n"
            try Data(main.utf8).write(to: URL(fileURLWithPath: staging + "/main.swift"))
            try GeneratedFolderSync.sync(from: staging, to: generated + "/MigrationSample")
            return try build("migration-sample-swiftprotobuf")
        }
        let run = try ChildProcess.run(program, [])
        guard run.status == 0 else {
            FileHandle.standardError.write(Data(run.stderr))
            throw SwiftProtobufPeerError.failed("the migration sample built against SwiftProtobuf exits \(run.status)")
        }
        let printed = logs + "/migration-sample.out"
        try Data(run.stdout).write(to: URL(fileURLWithPath: printed))
        let expected = try Data(contentsOf: URL(fileURLWithPath: sample + "/transcript.txt"))
        guard Data(run.stdout) == expected else {
            let diff = try ChildProcess.run("/usr/bin/diff", ["-u", sample + "/transcript.txt", printed])
            FileHandle.standardError.write(Data(diff.stdout))
            throw SwiftProtobufPeerError.failed("the migration sample built against SwiftProtobuf prints something else than "
                + "Tests/MigrationSampleTests/transcript.txt (diff above: - expected, + SwiftProtobuf)")
        }
        let lines = expected.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        say("migration sample: SwiftProtobuf 1.38.1 prints the \(lines) lines of transcript.txt, as the facades do (MigrationSampleTests)")
        return program
    }
}
