import DeviceProof
import Foundation
import Testing

/// `DeviceDriver.fieldSizes()`: what `device_driver --fields` prints, read into the sizes the
/// layout checks against; a failing run or a line of another shape stops the party naming it.
@Suite struct DeviceFieldSizesTests {
    /// A driver whose `--fields` run is `body` (a shell script's lines), in a folder of its own.
    static func withDriver<T>(_ body: String, _ run: (DeviceDriver) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-fields-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ("#!/bin/sh\n" + body + "\n").write(toFile: folder + "/driver", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/driver")
        return try run(DeviceDriver(executable: folder + "/driver", workDirectory: folder + "/work"))
    }

    static func failure(_ body: String) throws -> String? {
        try withDriver(body) { driver in
            do { _ = try driver.fieldSizes(); return nil } catch { return "\(error)" }
        }
    }

    @Test func theHeaderAndEachMessagesFieldSizesAreRead() throws {
        let sizes = try Self.withDriver("printf 'bytes_header 4\\n0 3 8\\n0 5 16\\n2 1 32\\n'") { try $0.fieldSizes() }
        #expect(sizes.bytesHeader == 4)
        #expect(sizes.dataSize == [0: [3: 8, 5: 16], 2: [1: 32]])
    }

    @Test func aFailingFieldsRunStopsThePartyWithItsStandardError() throws {
        #expect(try Self.failure("echo 'no layout compiled' >&2; exit 1") == "device_driver --fields failed: no layout compiled\n")
    }

    @Test func aLineOfAnotherShapeIsRefusedNamingIt() throws {
        #expect(try Self.failure("printf 'bytes_header 4\\n0 3\\n'") == "device_driver --fields wrote an unexpected line: 0 3")
    }
}
