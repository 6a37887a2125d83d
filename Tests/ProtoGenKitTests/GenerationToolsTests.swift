// The generation tools of a tree: which one `make setup` has not installed, named in order, and how
// a tool that cannot start or that fails is reported.

import Foundation
import Testing
@testable import ProtoGenKit
import TestSupport

@Suite struct GenerationToolsTests {
    @Test func eachMissingToolIsNamedInTurnUntilTheTreeHasThemAll() throws {
        let root = try TemporaryFolder("tools-tree")
        func missing() -> GeneratorError? {
            do { _ = try GenerationTools.inTree(root.path); return nil } catch { return error }
        }
        func add(_ relative: String) throws {
            let path = root.path + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        }
        #expect(missing() == .io(path: root.path + "/.deps/nanopb/generator/nanopb_generator.py", reason: "nanopb's generator is missing; run 'make setup'"))
        try add(".deps/nanopb/generator/nanopb_generator.py")
        #expect(missing() == .io(path: root.path + "/scripts/proto-options.py", reason: "the option loader is missing; run 'make setup'"))
        try add("scripts/proto-options.py")
        #expect(missing() == .io(path: root.path + "/scripts/device-build.py", reason: "the device builder is missing; run 'make setup'"))
        try add("scripts/device-build.py")
        #expect(missing() == nil)
    }

    @Test func aToolThatFailsIsReportedWithItsStatusAndOutputAndOneThatCannotStartByPath() throws {
        let tools = GenerationTools(nanopb: "/n", optionLoader: "/o", deviceBuilder: "/d")
        #expect(throws: GeneratorError.tool(what: "the script", status: 3, output: "err\nout\n")) {
            try tools.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], what: "the script")
        }
        #expect(try tools.run("/bin/sh", ["-c", "printf ok"], what: "the script") == Array("ok".utf8))
        do {
            _ = try tools.run("/nonexistent/tool", [], what: "the tool")
            Issue.record("a missing executable ran")
        } catch {
            guard case let .io(path, reason) = error else { Issue.record("\(error)"); return }
            #expect(path == "/nonexistent/tool")
            #expect(reason.hasPrefix("cannot run the tool: "))
        }
    }
}
