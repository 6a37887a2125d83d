// The bundled schema as the fuzz targets need it: its descriptor set (what the harness reads,
// wireproof.pb beside its executable or $WIREPROOF_DESCRIPTOR_SET) and protoc-gen-swift's code for
// the differential's SwiftProtobuf party.

import Foundation
import ProcessSupport

/// Writes the schema files of one tree's fuzzing.
struct FuzzSchemaFiles {
    let workspace: FuzzWorkspace

    /// Every .proto file under Protos/, relative to it, in byte order (the order protoc reads them,
    /// so the descriptor set's bytes do not depend on the file system's listing order).
    func protoFiles() -> [String] {
        let protos = workspace.root + "/Protos"
        return FuzzWorkspace.files(under: protos).filter { $0.hasSuffix(".proto") }.map { String($0.dropFirst(protos.count + 1)) }
    }

    /// The descriptor set of every file of Protos/ with its imports into `out`, rewritten only when
    /// its bytes change (so nothing that depends on it rebuilds).
    func writeDescriptorSet(to out: String) throws {
        let protoc = ChildProcess.protoc()
        let staged = out + ".tmp"
        let result = try ChildProcess.run(protoc, ["-I.", "-I/usr/include", "--include_imports", "--descriptor_set_out=\(staged)"] + protoFiles(),
                                          in: workspace.root + "/Protos")
        guard result.status == 0 else { throw FuzzError("protoc cannot read Protos/: \(result.stderrText)") }
        let fm = FileManager.default
        if fm.contents(atPath: staged) == fm.contents(atPath: out) {
            try fm.removeItem(atPath: staged)
        } else {
            _ = try? fm.removeItem(atPath: out)
            try fm.moveItem(atPath: staged, toPath: out)
        }
    }

    /// protoc-gen-swift 1.38.1's code for every file of the bundled schema, its message registry and
    /// prove's adapter (SwiftProtobufCodec) into the SwiftProtobufSchema target: the differential
    /// judges each input with SwiftProtobuf as `wireproof prove` judges its mutants.
    func generateSwiftProtobufParty() throws {
        try workspace.ensurePartyPlaceholder()
        let set = workspace.generationDescriptorSet
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: set).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try writeDescriptorSet(to: set)
        let peer = SwiftProtobufPeer.fromEnvironment(root: workspace.root)
        do {
            _ = try peer.generateTarget(descriptorSet: set, out: workspace.swiftProtobufParty)
        } catch {
            peer.say("\(error)")
            throw FuzzError("the differential's SwiftProtobuf party cannot be generated (reason above)")
        }
    }
}
