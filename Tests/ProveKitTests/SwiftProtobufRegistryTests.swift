import Foundation
import Testing
@testable import ProveKit

/// The registry of the peer's target: every message type protoc-gen-swift declared, then the ones
/// the library ships, each as a `.self` the adapter keys by full protobuf name.
@Suite struct SwiftProtobufRegistryTests {
    @Test func everyDeclaredMessageTypeIsFoundOnceNestedOrNonisolated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = """
            extension App_Outer: SwiftProtobuf.Message, SwiftProtobuf._MessageImplementationBase, SwiftProtobuf._ProtoNameProviding {
            nonisolated extension App_Outer.Inner: SwiftProtobuf.Message, SwiftProtobuf._MessageImplementationBase {
            extension App_Kind: SwiftProtobuf._ProtoNameProviding {
              // extension App_NotAtLineStart: SwiftProtobuf.Message, SwiftProtobuf._MessageImplementationBase {
            """
        let second = "extension Google_Protobuf_FileDescriptorSet: Message, _MessageImplementationBase, _ProtoNameProviding {\n"
            + "extension App_Outer: SwiftProtobuf.Message, SwiftProtobuf._MessageImplementationBase {\n"
        try Data(first.utf8).write(to: URL(fileURLWithPath: folder + "/app.pb.swift"))
        try Data(second.utf8).write(to: URL(fileURLWithPath: folder + "/google_protobuf_descriptor.pb.swift"))
        try Data(second.utf8).write(to: URL(fileURLWithPath: folder + "/not-swift.txt"))
        #expect(try SwiftProtobufPeer.declaredMessageTypes(in: folder)
            == ["App_Outer", "App_Outer.Inner", "Google_Protobuf_FileDescriptorSet"])
    }

    @Test func theRegistryListsGeneratedTypesThenTheLibrarysOwn() {
        let text = SwiftProtobufPeer.registry(generated: ["App_Outer"], shipped: ["Google_Protobuf_Timestamp"])
        #expect(text.contains("public let swiftProtobufMessageTypes: [any SwiftProtobuf.Message.Type] = [\n"
            + "    App_Outer.self,\n    SwiftProtobuf.Google_Protobuf_Timestamp.self,\n]\n"))
    }
}
