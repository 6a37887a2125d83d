// Keeps the raw-load hole closed: in the debug builds the sanitizer legs use,
// `UnsafeRawPointer.load(fromByteOffset:as:)`, `storeBytes(of:as:)` and standard-library copies out of
// raw buffers are calls into the uninstrumented standard library, so AddressSanitizer missed a
// one-byte over-read and an 8-byte read of a 4-byte enum slot made that way (docs/sanitizers.md, "Holes closed"). The runtime
// and the generated facades therefore touch field memory only through typed `pointee` accesses and
// memcpy; this test fails if a raw access comes back.

import TestSupport
import Foundation
import Testing

@Suite struct InstrumentedAccessTests {
    static let root = URL(fileURLWithPath: repositoryRoot)

    static func swiftFiles(_ folder: String) throws -> [URL] {
        let dir = root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    @Test(arguments: ["Sources/Shipped/NanopbRuntime", "Sources/Generated/BundledProto"])
    func fieldMemoryIsNeverReadOrWrittenThroughRawLoads(_ folder: String) throws {
        let files = try Self.swiftFiles(folder)
        #expect(!files.isEmpty)
        let raw = [".load(", ".loadUnaligned(", ".storeBytes(", "UnsafeRawBufferPointer(start:"]
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for pattern in raw where line.contains(pattern) {
                    Issue.record("\(file.lastPathComponent):\(number + 1) uses \(pattern) -- invisible to ASan/TSan in debug builds")
                }
            }
        }
    }
}
