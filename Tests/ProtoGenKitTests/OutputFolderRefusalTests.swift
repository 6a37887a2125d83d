// A facade folder that cannot be made is refused naming it, before anything is written.

import Foundation
import Testing
@testable import ProtoGenKit
import TestSupport

@Suite struct OutputFolderRefusalTests {
    @Test func aFacadeFolderBelowAFileIsRefusedByPath() throws {
        let folder = try TemporaryFolder("output-refusal")
        #expect(FileManager.default.createFile(atPath: folder.path + "/plain", contents: Data()))
        let path = folder.path + "/plain/Facades"
        do {
            _ = try OutputFolder(path: path).replaceGenerated(with: [GeneratedFile(name: "a.pb.swift", contents: "x")])
            Issue.record("a folder below a file was made")
        } catch {
            guard case let .io(named, reason) = error else { Issue.record("\(error)"); return }
            #expect(named == path)
            #expect(reason.hasPrefix("cannot create folder: "), "\(reason)")
        }
    }
}
