// A private folder for one test, removed with everything in it when the value goes away.

import Foundation

/// Owns a fresh folder under the system's temporary directory; nothing else writes there, and
/// it is deleted (recursively) when the last reference is released.
public final class TemporaryFolder {
    /// The folder's absolute path, without a trailing slash.
    public let path: String

    public init(_ label: String = "test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
