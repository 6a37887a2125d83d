// How the bench package's sources are installed: copied only when they differ (so a rerun
// rebuilds only what changed), folders created, an older copy replaced.

import Foundation
import Testing
@testable import BenchReport

@Suite struct PackageFileInstallTests {
    @Test func aSourceIsCopiedIntoNewFoldersAndAChangedOneReplacesTheOldCopy() throws {
        let folder = try ScratchFolder(["main.swift": "print(1)\n"])
        defer { folder.remove() }
        let destination = folder.path + "/pkg/Sources/Probe/main.swift"
        try ScratchPackage.install(folder.path + "/main.swift", destination)
        #expect(try folder.read("pkg/Sources/Probe/main.swift") == "print(1)\n")
        try folder.write("print(2)\n", to: "main.swift")
        try ScratchPackage.install(folder.path + "/main.swift", destination)
        #expect(try folder.read("pkg/Sources/Probe/main.swift") == "print(2)\n")
    }

    @Test func anIdenticalCopyIsLeftUntouched() throws {
        let folder = try ScratchFolder(["main.swift": "print(1)\n", "pkg/main.swift": "print(1)\n"])
        defer { folder.remove() }
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.path + "/pkg/main.swift")
        try ScratchPackage.install(folder.path + "/main.swift", folder.path + "/pkg/main.swift")
        let kept = try FileManager.default.attributesOfItem(atPath: folder.path + "/pkg/main.swift")[.modificationDate] as? Date
        #expect(kept == old)
    }
}
