// A fresh folder under the temporary directory for tests that read or write files, filled from
// a name → contents table and removed by the test that made it.

import Foundation
import Glibc

/// Owns one folder under `NSTemporaryDirectory()`; `remove()` deletes it with everything in it.
struct ScratchFolder {
    let path: String

    /// Makes the folder and writes each `files` entry (a path relative to it, subfolders created).
    init(_ files: [String: String] = [:]) throws {
        path = NSTemporaryDirectory() + "bench-report-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try write(text, to: name) }
    }

    /// Writes `text` to `name` with mode `mode` (see `write(bytes:to:mode:)`).
    func write(_ text: String, to name: String, mode: mode_t = 0o644) throws {
        try write(bytes: Array(text.utf8), to: name, mode: mode)
    }

    /// Writes `bytes` to `name` through a close-on-exec descriptor with mode `mode`. Children
    /// other tests spawn meanwhile do not inherit the descriptor, so running the file as a
    /// stand-in program cannot fail with ETXTBSY ("Text file busy") because of them.
    func write(bytes: [UInt8], to name: String, mode: mode_t = 0o644) throws {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            written += n
        }
    }

    func read(_ name: String) throws -> String { try String(contentsOfFile: path + "/" + name, encoding: .utf8) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
