// The compiled device build (Sources/Proof/DeviceDriver/device_driver.c linked with the schema's
// C from scripts/device-build.py), run once over a batch of messages.

import Foundation
import NanopbDeviceLayout
import ProofSupport

/// What the device did with one message.
public enum DeviceAnswer: Sendable, Equatable {
    /// Decoded, and re-encoded to these bytes.
    case accepted([UInt8])
    /// pb_decode refused it with this message.
    case refused(String)
    /// Decoded, but pb_encode failed with this message.
    case reencodeFailed(String)
    /// The device build crashed on it (the driver died with 128 + this signal).
    case crashed(Int32)
}

extension DeviceAnswer {
    /// An answer record of the driver: status 0 (re-encoding), 1 (pb_decode's message) or 2
    /// (pb_encode's message), and its body.
    init(status: UInt8, body: [UInt8]) {
        switch status {
        case 0: self = .accepted(body)
        case 1: self = .refused(String(decoding: body, as: UTF8.self))
        default: self = .reencodeFailed(String(decoding: body, as: UTF8.self))
        }
    }
}

public struct DeviceDriver: Sendable {
    /// The driver executable.
    public let executable: String
    /// A folder owned by the caller for the request and response files.
    public let workDirectory: String

    public init(executable: String, workDirectory: String) {
        self.executable = executable
        self.workDirectory = workDirectory
    }

    /// Decodes each (message index, bytes) on the device, in order; one answer each. A record
    /// the device crashes on is answered `.crashed` and the driver restarts after it (at most
    /// once per record).
    public func run(_ requests: [(index: Int, bytes: [UInt8])]) throws -> [DeviceAnswer] {
        var answers: [DeviceAnswer] = []
        while answers.count < requests.count {
            let (batch, status) = try runOnce(Array(requests[answers.count...]))
            answers += batch
            if status == 0 { break }
            guard status > 128, answers.count < requests.count else {
                throw DeviceProofError(description: "the device driver failed (exit \(status)) after \(answers.count) answers")
            }
            answers.append(.crashed(status - 128))
        }
        guard answers.count == requests.count else {
            throw DeviceProofError(description: "the device answered \(answers.count) of \(requests.count) messages")
        }
        return answers
    }

    /// One driver run: the complete answers it wrote, and its exit status.
    private func runOnce(_ requests: [(index: Int, bytes: [UInt8])]) throws -> ([DeviceAnswer], Int32) {
        var data: [UInt8] = []
        for request in requests {
            data += Self.littleEndian(UInt32(request.index)) + Self.littleEndian(UInt32(request.bytes.count)) + request.bytes
        }
        let requestPath = workDirectory + "/requests.bin", responsePath = workDirectory + "/responses.bin"
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        try Data(data).write(to: URL(fileURLWithPath: requestPath))
        try? FileManager.default.removeItem(atPath: responsePath)
        let result = try ChildProcess.run(executable, [requestPath, responsePath])
        // No file when the driver died before its first answer.
        let bytes = (try? ChildProcess.readFile(responsePath)) ?? []
        var answers: [DeviceAnswer] = [], offset = 0
        while offset + 5 <= bytes.count {
            let status = bytes[offset]
            let length = Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]) << 16 | Int(bytes[offset + 4]) << 24
            guard offset + 5 + length <= bytes.count else { break }  // cut short by a crash
            answers.append(DeviceAnswer(status: status, body: Array(bytes[(offset + 5)..<(offset + 5 + length)])))
            offset += 5 + length
        }
        if result.status == 0 && offset != bytes.count {
            throw DeviceProofError(description: "a device answer is cut short at byte \(offset)")
        }
        return (answers, result.status)
    }

    /// The sizes the compiled device checks against, from `device_driver --fields`.
    public func fieldSizes() throws -> DeviceFieldSizes {
        let result = try ChildProcess.run(executable, ["--fields"])
        guard result.status == 0 else { throw DeviceProofError(description: "device_driver --fields failed: \(result.stderrText)") }
        var sizes = DeviceFieldSizes()
        for line in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2, words[0] == "bytes_header", let n = Int(words[1]) {
                sizes.bytesHeader = n
            } else if words.count == 3, let index = Int(words[0]), let tag = Int32(words[1]), let size = Int(words[2]) {
                sizes.dataSize[index, default: [:]][tag] = size
            } else {
                throw DeviceProofError(description: "device_driver --fields wrote an unexpected line: \(line)")
            }
        }
        return sizes
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
