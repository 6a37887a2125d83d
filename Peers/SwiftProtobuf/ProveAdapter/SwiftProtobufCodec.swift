// Copied by `wireproof swiftprotobuf-peer generate` next to the code protoc-gen-swift writes for a
// schema (the `ProvedSchemaSwift` target of `wireproof prove`'s scratch package); do not edit the
// copy. SwiftProtobuf's side of the proof: decode with SwiftProtobuf's default options (non-partial,
// depth limit 100, unknown fields kept), re-encode with deterministic map order.
import SwiftProtobuf

public enum SwiftProtobufCodec {
    /// The peer's name in tables: the library and its version.
    public static let name = "SwiftProtobuf 1.38.1"

    /// Full protobuf names of every message type of the schema.
    public static var messageNames: [String] { swiftProtobufMessageTypes.map { $0.protoMessageName } }

    /// What SwiftProtobuf makes of `bytes` as message `fullName`: nil for a type it does not have,
    /// else the re-encoding or the name of the error that refused the bytes.
    public static func decodeReencode(_ fullName: String, _ bytes: [UInt8]) -> Result<[UInt8], Rejection>? {
        guard let type = swiftProtobufMessageTypes.first(where: { $0.protoMessageName == fullName }) else { return nil }
        return roundTrip(type, bytes)
    }

    /// A refusal: the error's case as SwiftProtobuf names it (e.g. "missingRequiredFields").
    public struct Rejection: Error, Sendable { public let reason: String }

    private static func roundTrip<M: SwiftProtobuf.Message>(_ type: M.Type, _ bytes: [UInt8]) -> Result<[UInt8], Rejection> {
        let message: M
        do { message = try M(serializedBytes: bytes) } catch { return .failure(Rejection(reason: "\(error)")) }
        var options = BinaryEncodingOptions()
        options.useDeterministicOrdering = true
        do { return .success(try message.serializedBytes(options: options)) } catch { return .failure(Rejection(reason: "encode: \(error)")) }
    }
}
