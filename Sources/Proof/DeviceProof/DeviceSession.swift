// The device build kept running for one message at a time (`device_driver - -`: records on its
// stdin, answers on its stdout, each flushed): what the `device` fuzz target asks per input, where
// starting the driver per message would cost more than the decode.

import Foundation
import ProofSupport

/// One running device driver, started on first use and again after a crash. Not thread-safe:
/// one caller at a time. Owns the child and its two pipe descriptors until `deinit`.
public final class DeviceSession {
    private let executable: String
    private var child: ChildProcess.PipedChild?

    public init(executable: String) {
        self.executable = executable
        // A driver that died mid-request must not take the caller down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { _ = stop() }

    /// The device's answer to `bytes` as message `index` of its table. A crash is answered
    /// `.crashed(signal)` and the next call starts a new driver; a driver that exits instead
    /// (a bad record, an I/O error) throws.
    public func answer(index: Int, bytes: [UInt8]) throws -> DeviceAnswer {
        let child: ChildProcess.PipedChild
        if let running = self.child { child = running } else {
            child = try ChildProcess.launchPiped(executable, ["-", "-"])
            self.child = child
        }
        let record = DeviceDriver.littleEndian(UInt32(index)) + DeviceDriver.littleEndian(UInt32(bytes.count)) + bytes
        guard Self.writeAll(child.input, record), let head = Self.read(child.output, 5) else { return try died() }
        let length = Int(head[1]) | Int(head[2]) << 8 | Int(head[3]) << 16 | Int(head[4]) << 24
        guard let body = Self.read(child.output, length) else { return try died() }
        return DeviceAnswer(status: head[0], body: body)
    }

    /// The driver stopped before answering: reaps it and reports how it ended.
    private func died() throws -> DeviceAnswer {
        let status = stop()
        guard status > 128 else {
            throw DeviceProofError(description: "the device driver exited (status \(status)) instead of answering")
        }
        return .crashed(status - 128)
    }

    /// Closes the driver's stdin (it ends at end of input) and stdout, and reaps it; its status.
    @discardableResult
    private func stop() -> Int32 {
        guard let child else { return 0 }
        self.child = nil
        close(child.input)
        close(child.output)
        return ChildProcess.waitForExit(child.pid)
    }

    /// Writes all of `bytes` to `fd`, retrying an interrupted write; false on any other failure.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Exactly `count` bytes, or nil at end of file (or on a failed read).
    static func read(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count), offset = 0
        while offset < count {
            let got = bytes[offset...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }
}
