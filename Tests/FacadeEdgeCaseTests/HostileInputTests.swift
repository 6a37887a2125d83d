// Malformed bytes through the facade decoder: always a typed `NanopbError.decodeFailed` with
// nanopb's reason and an offset, never a crash. nanopb's offset is where its stream stopped (the
// byte after the last one it consumed; for an error inside a submessage, the end of the outermost
// enclosing field, because the parent stream has already skipped the whole field). The oracle
// rejects the same bytes, naming the first byte of the construct at fault.

import Testing
import NanopbRuntime
import BundledProto
import ProtoOracle
import TestSupport

/// Malformed input, what nanopb says about it, and what the oracle says.
struct HostileCase: Sendable, CustomTestStringConvertible {
    let name: String
    let message: String
    let bytes: [UInt8]
    let nanopb: NanopbError
    let oracle: OracleDecodeError
    var testDescription: String { name }

    func decodeThroughTheFacade() throws(NanopbError) {
        switch message {
        case "rtm.Codec": _ = try Rtm_Codec(serializedBytes: bytes)
        case "rtm.Cursor": _ = try Rtm_Cursor(serializedBytes: bytes)
        case "rtm.DataPacket": _ = try Rtm_DataPacket(serializedBytes: bytes)
        default: preconditionFailure("no facade for \(message) in this table")
        }
    }
}

@Suite struct HostileInputTests {
    static let cases: [HostileCase] = [
        HostileCase(name: "truncated tag", message: "rtm.Codec", bytes: [0x80],
                    nanopb: .decodeFailed(reason: .endOfStream, offset: 1), oracle: .init(.truncatedVarint, at: 0)),
        HostileCase(name: "truncated varint value", message: "rtm.Codec", bytes: [0x18, 0x80],
                    nanopb: .decodeFailed(reason: .endOfStream, offset: 2), oracle: .init(.truncatedVarint, at: 1)),
        HostileCase(name: "truncated fixed32 value", message: "rtm.Cursor", bytes: [0x0D, 0x00, 0x00],
                    nanopb: .decodeFailed(reason: .endOfStream, offset: 1), oracle: .init(.truncatedFixed, at: 1)),
        HostileCase(name: "string length past end", message: "rtm.Codec", bytes: [0x12, 0x05, 0x61],
                    nanopb: .decodeFailed(reason: .endOfStream, offset: 2), oracle: .init(.lengthPastEnd, at: 1)),
        HostileCase(name: "submessage length past end", message: "rtm.DataPacket", bytes: [0x32, 0x05, 0x22],
                    nanopb: .decodeFailed(reason: .parentStreamTooShort, offset: 2), oracle: .init(.lengthPastEnd, at: 1)),
        HostileCase(name: "error inside a submessage", message: "rtm.DataPacket",
                    bytes: [0x32, 0x03, 0x22, 0x05, 0x61, 0x20, 0x01],
                    nanopb: .decodeFailed(reason: .endOfStream, offset: 5), oracle: .init(.lengthPastEnd, at: 3)),
        HostileCase(name: "error two submessages down", message: "rtm.DataPacket",
                    bytes: [0x32, 0x05, 0x42, 0x03, 0x22, 0x05, 0x61, 0x20, 0x01],
                    nanopb: .decodeFailed(reason: .endOfStream, offset: 7), oracle: .init(.lengthPastEnd, at: 5)),
        HostileCase(name: "invalid wire type 7", message: "rtm.Codec", bytes: [0x4F],
                    nanopb: .decodeFailed(reason: .invalidWireType, offset: 1), oracle: .init(.invalidWireType, at: 0)),
        HostileCase(name: "invalid wire type 6", message: "rtm.Codec", bytes: [0x4E, 0x00],
                    nanopb: .decodeFailed(reason: .invalidWireType, offset: 1), oracle: .init(.invalidWireType, at: 0)),
        HostileCase(name: "field number 0", message: "rtm.Codec", bytes: [0x00, 0x01],
                    nanopb: .decodeFailed(reason: .zeroTag, offset: 1), oracle: .init(.fieldNumberZero, at: 0)),
        HostileCase(name: "tag 2^32 wraps to field number 0", message: "rtm.Codec", bytes: [0x80, 0x80, 0x80, 0x80, 0x10, 0x00],
                    nanopb: .decodeFailed(reason: .zeroTag, offset: 5), oracle: .init(.fieldNumberZero, at: 0)),
        HostileCase(name: "varint longer than 10 bytes", message: "rtm.Codec", bytes: [0x18] + [UInt8](repeating: 0xFF, count: 11),
                    nanopb: .decodeFailed(reason: .varintOverflow, offset: 11), oracle: .init(.overlongVarint, at: 1)),
    ]

    @Test(arguments: cases)
    func malformedInputFailsWithATypedErrorAndAnOffset(_ hostile: HostileCase) async throws {
        let oracle = try await Oracle.bundled()
        expectBalancedAllocations { #expect(throws: hostile.nanopb) { try hostile.decodeThroughTheFacade() } }
        #expect(try oracle.decodeError(hostile.bytes, as: hostile.message) == hostile.oracle)
    }

    @Test func aKnownFieldWithTheWrongWireTypeIsRejectedWhereTheOracleKeepsItAsUnknown() async throws {
        // Codec.codec (an enum, varint) sent as fixed32. Google's parsers treat a known number with
        // a mismatched wire type as an unknown field; nanopb fails.
        let oracle = try await Oracle.bundled()
        let wire: [UInt8] = [0x0D, 0x01, 0x00, 0x00, 0x00]
        #expect(throws: NanopbError.decodeFailed(reason: .wrongWireType, offset: 1)) {
            try Rtm_Codec(serializedBytes: wire)
        }
        let decoded = try oracle.decode(wire, as: "rtm.Codec")
        #expect(!decoded.has(number: 1))
        #expect(decoded.unknownFields == [.fixed32(1, 1)])
    }

    @Test func truncationsOfAValidPacketNeverCrash() async throws {
        // Every prefix of a packet using every wire type: each decodes or throws decodeFailed
        // with an offset inside the input, and the oracle rejects exactly the same prefixes.
        let oracle = try await Oracle.bundled()
        let packet = Rtm_DataPacket.with {
            $0.kind = .lossy
            $0.senderIdentity = "alice"
            $0.sequence = 300
            $0.chat = .with { $0.id = "m1"; $0.sentAt = .with { $0.seconds = 1_700_000_000; $0.nanos = 5 } }
            $0.padding = [1, 2, 3]
        }
        let bytes = try packet.serializedBytes()
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            let facadeAccepted = expectBalancedAllocations("prefix \(length)") { () -> Bool in
                do throws(NanopbError) {
                    _ = try Rtm_DataPacket(serializedBytes: prefix)
                    return true
                } catch {
                    guard case .decodeFailed(let reason, let offset) = error else { Issue.record("\(error)"); return false }
                    #expect(reason != .other("(no message)") && (0...length).contains(offset), "prefix \(length)")
                    return false
                }
            }
            let oracleAccepted = (try? oracle.decode(prefix, as: "rtm.DataPacket")) != nil
            #expect(facadeAccepted == oracleAccepted, "prefix \(length)")
        }
    }
}
