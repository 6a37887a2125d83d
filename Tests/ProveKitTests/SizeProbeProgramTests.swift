import Foundation
import ProtoGenKit
import Testing
@testable import ProveKit

/// `wireproof size-probe`'s program: one `touch_T` per chosen message that reads every getter,
/// rebuilds through every setter and every `clear` mutator (no other mutator), and a main that
/// calls each once; `--all` and `--type` exclude each other and one of them is required.
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
}
