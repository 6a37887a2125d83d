import Foundation
import Testing
@testable import ProveKit
import TestSupport

/// A reproducer the schema's fuzz step found is shown as its path and protoc --decode_raw of the
/// bytes after the type selector, at most 20 lines of it.
@Suite struct SchemaFuzzTriageTests {
    @Test func aReproducerIsDecodedWithoutItsTypeSelectorAtMostTwentyLines() throws {
        let folder = try TemporaryFolder("schema-fuzz-triage")
        let crash = folder.path + "/crash"
        // Selector 7, then field 1 = 150 (08 96 01).
        try Data([7, 0x08, 0x96, 0x01]).write(to: URL(fileURLWithPath: crash))
        let header = "  reproducer: \(crash) (first byte: type selector); protoc --decode_raw of the rest:"
        #expect(SchemaFuzzStep.triage(crash) == [header, "    1: 150"])
        // Fields 1 to 25, each the varint 1: 25 lines decoded, 20 shown.
        var bytes: [UInt8] = [0]
        for field in 1...25 { bytes += field < 16 ? [UInt8(field << 3), 1] : [UInt8((field << 3) & 0x7f) | 0x80, UInt8(field >> 4), 1] }
        try Data(bytes).write(to: URL(fileURLWithPath: crash))
        #expect(SchemaFuzzStep.triage(crash) == [header] + (1...20).map { "    \($0): 1" })
    }
}
