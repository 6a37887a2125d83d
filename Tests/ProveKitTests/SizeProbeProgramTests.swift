import ArgumentParser
import Foundation
import ProtoGenKit
import Testing
@testable import ProveKit
import TestSupport

/// `wireproof size-probe`'s program: one `touch_T` per chosen message that reads every getter,
/// rebuilds through every setter and every `clear` mutator (no other mutator), and a main that
/// calls each once; `--all` and `--type` exclude each other and one of them is required; the
/// command prints how many messages it touches and refuses a type the plan does not have.
@Suite struct SizeProbeProgramTests {
    private func entry(_ json: String) throws -> PlanDocument.TypeEntry {
        try JSONDecoder().decode(PlanDocument.TypeEntry.self, from: Data(json.utf8))
    }

    @Test func theProgramTouchesEveryGetterSetterAndClearOfEachMessage() throws {
        let a = try entry(#"{"proto":"p.A","swift":"P_A","c":"p_A","file":"p.proto","kind":"message","getters":["x","y"],"setters":["x"],"mutators":["clearX","appendY"]}"#)
        let b = try entry(#"{"proto":"p.B","swift":"P_B","c":"p_B","file":"p.proto","kind":"message"}"#)
        let expected = """
            // Written by `wireproof size-probe` for make bench; do not edit or commit.
            // Uses every accessor of 2 message type(s).
            import Facades

            @inline(never)
            func touch_P_A(_ bytes: [UInt8], _ flag: Bool) -> Int {
                let m = (try? P_A(serializedBytes: bytes)) ?? P_A()
                var h = Hasher()
                h.combine(m.x)
                h.combine(m.y)
                let b = P_A.with { b in
                    b.x = m.x
                    if flag { b.clearX() }
                }
                h.combine(b)
                h.combine(b.description)
                h.combine(b.owned().isOwning)
                return h.finalize()
            }

            @inline(never)
            func touch_P_B(_ bytes: [UInt8], _ flag: Bool) -> Int {
                let m = (try? P_B(serializedBytes: bytes)) ?? P_B()
                var h = Hasher()
                let b = P_B.with { b in
                }
                h.combine(b)
                h.combine(b.description)
                h.combine(b.owned().isOwning)
                return h.finalize()
            }

            let input = Array((CommandLine.arguments.dropFirst().first ?? "").utf8)
            let flag = CommandLine.arguments.count > 2
            var total = 0
            total &+= touch_P_A(input, flag)
            total &+= touch_P_B(input, flag)
            print(total)

            """
        #expect(SizeProbeCommand.program(touching: [a, b], module: "Facades") == expected)
    }

    @Test func exactlyOneOfAllOrTypeIsRequired() throws {
        let base = ["--plan", "p.json", "--module", "M", "--out", "o/main.swift"]
        #expect(throws: (any Error).self) { try SizeProbeCommand.parse(base) }
        #expect(throws: (any Error).self) { try SizeProbeCommand.parse(base + ["--all", "--type", "A"]) }
        #expect(try SizeProbeCommand.parse(base + ["--all"]).all)
        #expect(try SizeProbeCommand.parse(base + ["--type", "A", "--type", "B"]).types == ["A", "B"])
        #expect(try SizeProbeCommand.parse(base + ["--type", "A"]).all == false)
    }

    /// A plan of two messages and an enum, written to `folder`.
    private func plan(in folder: String) throws -> String {
        let types = [#"{"proto":"p.A","swift":"P_A","c":"p_A","file":"p.proto","kind":"message","getters":["x"],"setters":["x"]}"#,
                     #"{"proto":"p.E","swift":"P_E","c":"p_E","file":"p.proto","kind":"enum"}"#,
                     #"{"proto":"p.B","swift":"P_B","c":"p_B","file":"p.proto","kind":"message"}"#]
        let json = #"{"roots":[],"cFiles":[],"cIncludes":[],"cRenames":[],"nanopbOptionsFile":[],"optionsMode":"skip","honoured":[],"#
            + #""skipped":[],"skippedExtensions":[],"facadeFiles":[],"types":["# + types.joined(separator: ",") + "]}"
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/plan.json"))
        return folder + "/plan.json"
    }

    @Test func theCommandWritesTheProgramForTheChosenMessagesAndPrintsHowMany() throws {
        let folder = try TemporaryFolder("size-probe")
        let plan = try plan(in: folder.path)
        let document = try PlanDocument.load(plan)
        let base = ["--plan", plan, "--module", "Facades", "--out"]
        var said: [String] = []
        try SizeProbeCommand.parse(base + [folder.path + "/all/main.swift", "--all"]).run(say: { said.append($0) })
        #expect(said == ["2"], "the enum is not a message")
        #expect(FileManager.default.contents(atPath: folder.path + "/all/main.swift")
            == Data(SizeProbeCommand.program(touching: document.messages, module: "Facades").utf8))
        said = []
        try SizeProbeCommand.parse(base + [folder.path + "/one/main.swift", "--type", "P_B"]).run(say: { said.append($0) })
        #expect(said == ["1"])
        #expect(FileManager.default.contents(atPath: folder.path + "/one/main.swift")
            == Data(SizeProbeCommand.program(touching: [document.messages[1]], module: "Facades").utf8))
        let refusal = try #require(throws: ValidationError.self) {
            try SizeProbeCommand.parse(base + [folder.path + "/enum/main.swift", "--type", "P_E"]).run(say: { _ in })
        }
        #expect(refusal.message == "P_E is not a message of the plan \(plan)")
    }
}
