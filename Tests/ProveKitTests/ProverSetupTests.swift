import ArgumentParser
import FacadeProof
import Foundation
import Testing
@testable import ProveKit
import TestSupport

/// What `wireproof prove` decides before it runs anything: its defaults, the schema folder it
/// refuses, where its scratch package goes, what it asks generation for and the scratch
/// package's targets.
@Suite struct ProverSetupTests {
    private func temporaryFolder(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("prover-\(getpid())/\(name)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theCommandsDefaultsAreTheOptionsDefaults() throws {
        let parsed = try ProveCommand.parse(["--proto-dir", "Protos"]).options
        let defaults = ProveCommand.Options()
        for options in [parsed, defaults] {
            #expect(!options.honourOptions)
            #expect(options.device)
            #expect(options.swiftProtobufPeer)
            #expect(options.random == 0)
            #expect(options.seed == 1)
            #expect(options.mutants == 64)
            #expect(options.fuzzSeconds == 0)
            #expect(options.scratch == nil && options.json == nil && options.optionsFile == nil && options.protoPaths.isEmpty)
        }
    }

    @Test func everyFlagReachesTheOptions() throws {
        let options = try ProveCommand.parse([
            "--proto-dir", "p", "--options", "o", "--proto-path", "a", "--proto-path", "b", "--honour-options", "--no-device",
            "--no-swiftprotobuf", "--random", "3", "--seed", "9", "--mutants", "5", "--fuzz-seconds", "7", "--scratch", "s", "--json", "j",
        ]).options
        #expect(options.protoDirectory == "p" && options.optionsFile == "o" && options.protoPaths == ["a", "b"])
        #expect(options.honourOptions && !options.device && !options.swiftProtobufPeer)
        #expect(options.random == 3 && options.seed == 9 && options.mutants == 5 && options.fuzzSeconds == 7)
        #expect(options.scratch == "s" && options.json == "j")
    }

    @Test func aMissingSchemaFolderOrAFileIsRefusedByName() throws {
        let folder = try temporaryFolder("missing")
        #expect(throws: ProveError.self) { try Prover(options: .init(protoDirectory: folder + "/none")) }
        do {
            _ = try Prover(options: .init(protoDirectory: folder + "/none"))
        } catch {
            #expect("\(error)" == "schema folder \(folder)/none does not exist")
        }
        let file = folder + "/a.proto"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        #expect(throws: ProveError.self) { try Prover(options: .init(protoDirectory: file)) }
    }

    @Test func theDefaultScratchIsNamedAfterTheFolderAndAHashOfItsPath() throws {
        let folder = try temporaryFolder("my schema.v2_x-y")
        let prover = try Prover(options: .init(protoDirectory: folder + "/."))
        let tag = String(DecodeMutationCheck.stableHash(folder) % 0xFFFF_FFFF, radix: 16)
        #expect(prover.protoDirectory == folder)
        #expect(prover.root == repositoryRoot)
        #expect(prover.scratch == "\(repositoryRoot)/.scratch/prove/myschemav2_x-y-\(tag)")
        // A name with nothing usable in it becomes "schema".
        let symbols = try temporaryFolder("+.+")
        let unnamed = try Prover(options: .init(protoDirectory: symbols))
        #expect(unnamed.scratch == "\(repositoryRoot)/.scratch/prove/schema-\(String(DecodeMutationCheck.stableHash(symbols) % 0xFFFF_FFFF, radix: 16))")
        // A scratch given is taken as given, standardized.
        let given = try Prover(options: .init(protoDirectory: folder, scratch: "/tmp/a/../scratch"))
        #expect(given.scratch == "/tmp/scratch")
    }

    @Test func generationReadsTheOraclesDescriptorSetAndRecordsOnlyInTreeFolders() throws {
        let options = ProveCommand.Options(protoDirectory: repositoryRoot + "/Protos", optionsFile: "/tmp/a/../x.options",
                                           protoPaths: ["/tmp/b/../imports"], honourOptions: true, device: false, scratch: "/tmp/s")
        let (request, hint) = try Prover(options: options).generationRequest()
        #expect(request.protoDirectory == repositoryRoot + "/Protos")
        #expect(request.cOut == "/tmp/s/Sources/ProvedSchemaC")
        #expect(request.swiftOut == "/tmp/s/Sources/ProvedSchema")
        #expect(request.descriptorSet == "/tmp/s/schema.pb")
        #expect(request.optionsFile == "/tmp/x.options")
        #expect(request.protoPaths == ["/tmp/imports"])
        #expect(request.honourOptions)
        #expect(!request.limitsFromOptions)
        #expect(request.deviceBuildOut == nil)
        #expect(hint == "Protos")

        let outside = try Prover(options: .init(protoDirectory: try temporaryFolder("outside"), scratch: "/tmp/s")).generationRequest()
        #expect(outside.protoDirectoryHint == nil)
        #expect(outside.0.limitsFromOptions)  // the device party is on by default
        #expect(outside.0.deviceBuildOut == "/tmp/s/device")  // what its step compiles
        #expect(!outside.0.honourOptions)
        #expect(outside.0.optionsFile == nil)
    }

    @Test func theScratchManifestDeclaresTheFiveTargetsTheDeviceRunnerAndThePeerOnlyWhenAsked() throws {
        let withDevice = try Prover(options: .init(protoDirectory: repositoryRoot + "/Protos", scratch: "/tmp/s"))
        let proof = ScratchManifest.Dependency.product("FacadeProof", package: "wireproof")
        let expected: [ScratchManifest.Target] = [
            .init("ProvedSchemaC", dependencies: [.product("CNanopb", package: "wireproof")]),
            .init("ProvedSchema", dependencies: [.target("ProvedSchemaC"), .product("NanopbRuntime", package: "wireproof"),
                                                 .product("NanopbDeviceLimits", package: "wireproof")]),
            .init("ProvedSchemaCatalog", dependencies: [.target("ProvedSchema"), proof]),
            .init("ProofRunner", executable: true, dependencies: [.target("ProvedSchemaCatalog"), proof]),
            .init("DeviceRunner", executable: true, dependencies: [.target("ProvedSchemaCatalog"), proof,
                                                                   .product("DeviceProof", package: "wireproof")]),
        ]
        let off = withDevice.scratchManifest(peer: .off("turned off"), deviceRunner: true)
        #expect(off.packageName == "ProvedSchemaScratch")
        #expect(off.wireproofRoot == repositoryRoot)
        #expect(off.targets == expected)
        #expect(off.urlDependencies.isEmpty)

        let on = withDevice.scratchManifest(peer: .on, deviceRunner: true)
        var withPeer = expected
        withPeer[3].dependencies.append(.target("ProvedSchemaSwift"))
        withPeer[4].dependencies.append(.target("ProvedSchemaSwift"))
        withPeer.append(.init("ProvedSchemaSwift", dependencies: [.product("SwiftProtobuf", package: "swift-protobuf")]))
        #expect(on.targets == withPeer)
        #expect(on.urlDependencies == [.init(url: "https://github.com/apple/swift-protobuf.git", exactVersion: "1.38.1")])
        // A schema without nanopb options: the device party is skipped, its runner is not built.
        #expect(withDevice.scratchManifest(peer: .on, deviceRunner: false).targets == Array(withPeer[0..<4]) + [withPeer[5]])

        let noDevice = try Prover(options: .init(protoDirectory: repositoryRoot + "/Protos", device: false, scratch: "/tmp/s"))
        #expect(noDevice.scratchManifest(peer: .off("x"), deviceRunner: false).targets[1].dependencies
                == [.target("ProvedSchemaC"), .product("NanopbRuntime", package: "wireproof")])
    }
}
