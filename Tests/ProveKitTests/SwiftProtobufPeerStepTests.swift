import Testing
@testable import ProveKit

/// The SwiftProtobuf peer's part in `wireproof prove`: off when turned off (and prove saying why),
/// off naming the compiler's first real error when its code does not compile, and the runners' source handing
/// the peer to the command only when it is on.
@Suite struct SwiftProtobufPeerStepTests {
    @Test func turnedOffThePeerIsNotPrepared() throws {
        #expect(try SwiftProtobufPeerStep.prepare(root: "/nonexistent", scratch: "/nonexistent", enabled: false, judged: [])
                == .off("turned off by --no-swiftprotobuf"))
    }

    @Test func proveSaysWhyThePeerIsOffAndNothingWhenItIsOn() {
        #expect(SwiftProtobufPeerStep.State.on.proveLine == nil)
        #expect(SwiftProtobufPeerStep.State.off("turned off by --no-swiftprotobuf").proveLine
                == "prove: SwiftProtobuf peer off: turned off by --no-swiftprotobuf")
    }

    @Test func codeThatDoesNotCompileTurnsThePeerOffNamingTheFirstRealError() {
        #expect(SwiftProtobufPeerStep.buildOutcome(status: 0, output: "error: ignored", scratch: "/s") == .on)
        let output = """
            [1/9] Compiling
            error: emit-module command failed with exit code 1
              /s/Sources/ProvedSchemaSwift/a.pb.swift:3:5: error: invalid redeclaration of 'Kind'
            /s/Sources/ProvedSchemaSwift/b.pb.swift:9:1: error: second
            """
        #expect(SwiftProtobufPeerStep.buildOutcome(status: 1, output: output, scratch: "/s")
                == .off("protoc-gen-swift 1.38.1's code for this schema does not compile (ProvedSchemaSwift/a.pb.swift:3:5: error: invalid redeclaration of 'Kind')"))
        #expect(SwiftProtobufPeerStep.buildOutcome(status: 137, output: "Killed\n", scratch: "/s")
                == .off("protoc-gen-swift 1.38.1's code for this schema does not compile (swift build exit 137)"))
    }

    @Test func theRunnerHandsThePeerToTheCommandOnlyWhenItIsOn() {
        let header = """
            // Written by `wireproof prove`; do not edit. The device party's runner of this schema.
            import DeviceProof
            import ProvedSchemaCatalog
            #if canImport(Glibc)
            import Glibc
            #endif

            """
        let off = SwiftProtobufPeerStep.runnerSource(.off("x"), role: "The device party's runner", module: "DeviceProof",
                                                     command: "DeviceProofCommand", catalogModule: "ProvedSchemaCatalog")
        #expect(off == header + "\nexit(DeviceProofCommand.main(catalog: facadeCatalog, arguments: Array(CommandLine.arguments.dropFirst())))\n")
        let on = SwiftProtobufPeerStep.runnerSource(.on, role: "The device party's runner", module: "DeviceProof",
                                                    command: "DeviceProofCommand", catalogModule: "ProvedSchemaCatalog")
        #expect(on.hasPrefix(header + "import FacadeProof\nimport ProvedSchemaSwift\n\nlet swiftProtobuf = PeerCodec(name: SwiftProtobufCodec.name)"))
        #expect(on.hasSuffix("\nexit(DeviceProofCommand.main(catalog: facadeCatalog, peer: swiftProtobuf, arguments: Array(CommandLine.arguments.dropFirst())))\n"))
        let proof = SwiftProtobufPeerStep.runnerSource(.on, role: "The proof runner", module: "FacadeProof",
                                                       command: "ProofRunnerCommand", catalogModule: "C")
        #expect(proof.components(separatedBy: "import FacadeProof\n").count == 2)  // imported once, by the header
    }
}
