// The oracle side of every edge-case test: the bundled schema compiled by protoc, and helpers that
// decode and encode through the reference codec. The facades never see any of this.

import Foundation
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing
import TestSupport

/// The reference codec over the bundled schema.
struct Oracle {
    let schemas: SchemaSet

    static func bundled() async throws -> Oracle { Oracle(schemas: try await BundledSchema.schemas()) }

    /// An empty message of `fullName` (e.g. `rtm.DataPacket`).
    func message(_ fullName: String) throws -> DynamicMessage {
        try #require(DynamicMessage(fullName, in: schemas), "\(fullName) is not declared")
    }

    /// `bytes` decoded as `fullName`, with the oracle's default (Google-compatible) options.
    func decode(_ bytes: [UInt8], as fullName: String) throws -> DynamicMessage {
        let schema = try #require(schemas.message(fullName), "\(fullName) is not declared")
        return try DynamicMessage(serializedBytes: bytes, schema: schema, in: schemas)
    }

    /// The error the oracle throws decoding `bytes` as `fullName`; nil (and an issue) if it decodes.
    func decodeError(_ bytes: [UInt8], as fullName: String) throws -> OracleDecodeError? {
        let schema = try #require(schemas.message(fullName), "\(fullName) is not declared")
        do {
            let message = try DynamicMessage(serializedBytes: bytes, schema: schema, in: schemas)
            Issue.record("the oracle decoded \(message)")
            return nil
        } catch {
            return error
        }
    }
}

/// `value` as a protobuf varint.
func varint(_ value: UInt64) -> [UInt8] {
    var value = value
    var out: [UInt8] = []
    while value >= 0x80 {
        out.append(UInt8(value & 0x7F) | 0x80)
        value >>= 7
    }
    out.append(UInt8(value))
    return out
}

/// A field key: `number << 3 | wireType`, as a varint.
func key(_ number: UInt64, _ wireType: UInt64) -> [UInt8] { varint(number << 3 | wireType) }

/// A length-delimited field: key, length, content.
func lengthDelimited(_ number: UInt64, _ content: [UInt8]) -> [UInt8] {
    key(number, 2) + varint(UInt64(content.count)) + content
}
