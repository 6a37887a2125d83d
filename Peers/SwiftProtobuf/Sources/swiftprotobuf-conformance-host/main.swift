// The SwiftProtobuf testee for Google's conformance_test_runner (protobuf 3.21.12), run by
// `make conformance` next to the facades' host (Conformance/Host) so both lines come from one run.
//
// Protocol (as for the facades' host): a 4-byte little-endian length and a serialized
// `conformance.ConformanceRequest` on stdin, the same framing of a `ConformanceResponse` on stdout,
// until stdin ends. Only binary proto3 `TestAllTypesProto3` is answered, exactly the set the facades'
// host answers, so the two lines compare the same tests; everything else is answered `skipped`.
// The messages are SwiftProtobuf's own code from protoc-gen-swift 1.38.1 (Generated/, written by
// `wireproof conformance` in process, or `wireproof swiftprotobuf-peer conformance-host`), decoded with SwiftProtobuf's default options.
import ConformanceMessagesSwift
import Foundation
import SwiftProtobuf

/// The message type the runner asks for in binary proto3 tests.
let proto3MessageType = "protobuf_test_messages.proto3.TestAllTypesProto3"

let input = FileHandle.standardInput
let output = FileHandle.standardOutput

/// Exits with `message` on stderr: the runner reports a host that stops as a failure of the run.
func stop(_ message: String) -> Never {
    FileHandle.standardError.write(Data("swiftprotobuf-conformance-host: \(message)\n".utf8))
    exit(1)
}

/// Exactly `count` bytes of stdin; nil when stdin ends before the first of them.
func frame(_ count: Int) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
        let chunk = input.readData(ofLength: count - bytes.count)
        if chunk.isEmpty {
            if bytes.isEmpty { return nil }
            stop("stdin ended after \(bytes.count) of \(count) bytes")
        }
        bytes.append(contentsOf: chunk)
    }
    return bytes
}

/// The runner's answer for one request: decode and encode failures of the message under test are
/// results (parseError, serializeError), not failures of the host.
func reply(to requestBytes: [UInt8]) -> Conformance_ConformanceResponse {
    var response = Conformance_ConformanceResponse()
    let request: Conformance_ConformanceRequest
    do {
        request = try Conformance_ConformanceRequest(serializedBytes: requestBytes)
    } catch {
        response.runtimeError = "cannot decode the ConformanceRequest: \(error)"
        return response
    }
    guard request.messageType == proto3MessageType else {
        response.skipped = "only \(proto3MessageType) is answered, not '\(request.messageType)'"
        return response
    }
    guard case let .protobufPayload(payload)? = request.payload, request.requestedOutputFormat == .protobuf else {
        response.skipped = "only binary protobuf input and output are answered"
        return response
    }
    let message: ProtobufTestMessages_Proto3_TestAllTypesProto3
    do {
        message = try ProtobufTestMessages_Proto3_TestAllTypesProto3(serializedBytes: payload)
    } catch {
        response.parseError = "\(error)"
        return response
    }
    do {
        response.protobufPayload = try message.serializedBytes()
    } catch {
        response.serializeError = "\(error)"
    }
    return response
}

while let header = frame(4) {
    let length = header.reversed().reduce(0) { $0 << 8 | Int($1) }
    guard let body = frame(length) else { stop("stdin ended before a \(length)-byte request") }
    let answer: [UInt8]
    do {
        answer = try reply(to: body).serializedBytes()
    } catch {
        stop("cannot encode the ConformanceResponse: \(error)")
    }
    let size = UInt32(answer.count)
    output.write(Data((0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + answer))
}
