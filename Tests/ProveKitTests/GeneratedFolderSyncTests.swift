import Foundation
import Testing
@testable import ProveKit

/// Generated code enters a source folder only where it changed, so a rerun rebuilds nothing.
@Suite struct GeneratedFolderSyncTests {
    private let files = FileManager.default

    private func folder(_ name: String, _ contents: [String: String]) throws -> String {
        let path = files.temporaryDirectory.appendingPathComponent("folder-sync-\(getpid())-\(UUID().uuidString)/\(name)").path
        try files.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (file, text) in contents {
            try files.createDirectory(atPath: ((path + "/" + file) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + file))
        }
        return path
    }

    private func modified(_ path: String) throws -> Date {
        try #require(try files.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }

    @Test func anUnchangedFileKeepsItsModificationTimeAndAChangedOneIsRewritten() throws {
        let staging = try folder("staging", ["same.swift": "same\n", "sub/changed.swift": "new\n"])
        let destination = try folder("destination", ["same.swift": "same\n", "sub/changed.swift": "old\n"])
        let past = Date(timeIntervalSince1970: 1_000_000)
        for file in ["same.swift", "sub/changed.swift"] {
            try files.setAttributes([.modificationDate: past], ofItemAtPath: destination + "/" + file)
        }
        let written = try GeneratedFolderSync.sync(from: staging, to: destination)
        #expect(written == ["sub/changed.swift"])
        #expect(try modified(destination + "/same.swift") == past)
        #expect(try modified(destination + "/sub/changed.swift") != past)
        #expect(files.contents(atPath: destination + "/sub/changed.swift") == Data("new\n".utf8))
    }

    @Test func aSecondSyncOfTheSameFilesWritesNothing() throws {
        let staging = try folder("staging", ["a.swift": "a\n", "b/c.swift": "c\n"])
        let destination = try folder("destination", [:])
        #expect(try GeneratedFolderSync.sync(from: staging, to: destination).sorted() == ["a.swift", "b/c.swift"])
        #expect(try GeneratedFolderSync.sync(from: staging, to: destination).isEmpty)
    }

    @Test func aFileTheStagingFolderLacksIsRemoved() throws {
        let staging = try folder("staging", ["kept.swift": "k\n"])
        let destination = try folder("destination", ["kept.swift": "k\n", "Placeholder.swift": "// placeholder\n"])
        #expect(try GeneratedFolderSync.sync(from: staging, to: destination) == ["Placeholder.swift"])
        #expect(GeneratedFolderSync.regularFiles(under: destination) == ["kept.swift"])
    }
}
