// SwiftProtobuf as a peer of `wireproof prove`: protoc-gen-swift 1.38.1 generates the schema into the
// scratch package (target ProvedSchemaSwift), and the proof runner judges SwiftProtobuf next to the
// facades (FacadeProof.PeerProof). On by default; off with --no-swiftprotobuf; skipped with a
// one-line reason when the peer cannot be built here (swift-protobuf cannot be resolved or built).
// SwiftProtobuf enters only the scratch package's graph, never Wireproof's own.

import Foundation
import ProofSupport

enum SwiftProtobufPeerStep {
    static let target = "ProvedSchemaSwift"

    /// Whether the peer takes part, and if not, why (one line).
    enum State: Equatable {
        case on
        case off(String)

        var summary: String {
            switch self {
            case .on: return "on"
            case .off(let why): return "off: \(why)"
            }
        }

        /// The line `prove` prints (stderr) once the peer's state is known: why it is off; nothing when on.
        var proveLine: String? {
            self == .on ? nil : "prove: SwiftProtobuf peer \(summary)"
        }
    }

    /// Generates the schema's SwiftProtobuf code into the scratch package (SwiftProtobufPeer, which
    /// builds protoc-gen-swift first). An unavailable peer is skipped with its reason; any other
    /// failure stops the proof.
    static func prepare(root: String, scratch: String, enabled: Bool, judged: Set<String>) throws -> State {
        guard enabled else { return .off("turned off by --no-swiftprotobuf") }
        do {
            try SwiftProtobufPeer.fromEnvironment(root: root).generateTarget(descriptorSet: scratch + "/schema.pb", out: "\(scratch)/Sources/\(target)",
                                                                              judged: judged)
            return .on
        } catch SwiftProtobufPeerError.unavailable(let why) {
            ProveCommand.printError("swiftprotobuf-peer: unavailable: \(why)")
            return .off(why)
        } catch {
            throw ProveError(description: "SwiftProtobuf code generation failed: \(error)")
        }
    }

    /// Compiles the peer's target alone (SwiftProtobuf and protoc-gen-swift's code for the schema),
    /// after the scratch package's build failed, to tell SwiftProtobuf's code from ours. `.on` when it builds; otherwise off with the compiler's first error: protoc-gen-swift 1.38.1
    /// writes code that does not compile for some legal schemas (a field named like a nested type).
    static func checkBuilds(scratch: String) throws -> State {
        let result = try ChildProcess.run("/usr/bin/env", Prover.scratchBuild(scratch, ["--target", target]))
        return buildOutcome(status: result.status, output: String(decoding: result.stdout + result.stderr, as: UTF8.self), scratch: scratch)
    }

    /// The peer's state after its target's build ended with `status`: off, naming the compiler's
    /// first real error (the driver's "emit-module command failed" is not one) without the scratch
    /// package's path, or the exit status when no error line was printed.
    static func buildOutcome(status: Int32, output: String, scratch: String) -> State {
        if status == 0 { return .on }
        let firstError = output.split(separator: "\n").first { $0.contains("error:") && !$0.contains("emit-module command failed") }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "swift build exit \(status)"
        let shortened = firstError.replacingOccurrences(of: scratch + "/Sources/", with: "")
        return .off("protoc-gen-swift 1.38.1's code for this schema does not compile (\(shortened))")
    }

    /// Adds swift-protobuf, the peer's target (named `target`: prove's, or the fuzz package's) and
    /// the runners' dependency on it when the peer is on.
    static func addPeer(_ state: State, to manifest: inout ScratchManifest, runners: [String], target: String = Self.target) {
        guard state == .on else { return }
        manifest.urlDependencies.append(.init(url: "https://github.com/apple/swift-protobuf.git", exactVersion: "1.38.1"))
        manifest.targets.append(.init(target, dependencies: [.product("SwiftProtobuf", package: "swift-protobuf")]))
        for runner in runners {
            if let index = manifest.targets.firstIndex(where: { $0.name == runner }) {
                manifest.targets[index].dependencies.append(.target(target))
            }
        }
    }

    /// A runner's main.swift: `imports` and the catalog, then `command`'s `main(catalog:[peer:]arguments:)`,
    /// handed SwiftProtobuf as a `PeerCodec` when the peer is on. The proof runner (FacadeProof's
    /// `ProofRunnerCommand`) and the device runner (DeviceProof's `DeviceProofCommand`) both take one.
    static func runnerSource(_ state: State, role: String, module: String, command: String, catalogModule: String) -> String {
        var text = """
            // Written by `wireproof prove`; do not edit. \(role) of this schema.
            import \(module)
            import \(catalogModule)
            #if canImport(Glibc)
            import Glibc
            #endif

            """
        guard state == .on else {
            return text + "\nexit(\(command).main(catalog: facadeCatalog, arguments: Array(CommandLine.arguments.dropFirst())))\n"
        }
        if module != "FacadeProof" { text += "import FacadeProof\n" }
        text += """
            import \(target)

            let swiftProtobuf = PeerCodec(name: SwiftProtobufCodec.name) { messageType, bytes in
                switch SwiftProtobufCodec.decodeReencode(messageType, bytes) {
                case nil: return nil
                case .success(let reencoded)?: return .accepted(reencoded)
                case .failure(let rejection)?: return .rejected(rejection.reason)
                }
            }
            exit(\(command).main(catalog: facadeCatalog, peer: swiftProtobuf, arguments: Array(CommandLine.arguments.dropFirst())))

            """
        return text
    }
}
