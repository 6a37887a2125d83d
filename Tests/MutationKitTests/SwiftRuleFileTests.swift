// The project's own Swift operators (scripts/mutation/swift.rules) on lines whose mutants no check
// could ever observe: those lines must make no mutant, while their neighbours' real faults still do.

import Testing
@testable import MutationKit
import TestSupport

@Suite struct SwiftRuleFileTests {
    let rules: RuleSet
    init() throws { rules = try RuleSet(contentsOf: repositoryRoot + "/scripts/mutation/swift.rules") }

    @Test func theBoundCountOfAMemoryRebindIsNotMutatedButTheRestOfItsLineIs() {
        let line = "        case 2: slot.withMemoryRebound(to: Int16.self, capacity: 1) { $0.pointee = Int16(value) }\n"
        let mutated = rules.mutations(of: [line]).map(\.mutated)
        #expect(!mutated.contains { !$0.contains("capacity: 1)") }, "the rebind's count changed: \(mutated)")
        #expect(mutated.contains("        case 0: slot.withMemoryRebound(to: Int16.self, capacity: 1) { $0.pointee = Int16(value) }\n"),
                "the case label is still a constant that can change")
    }

    @Test func anIntegerLiteralElsewhereStillBecomesZeroAndGrowsByOne() {
        let mutated = Set(rules.mutations(of: ["let limit = capacity(8)\n"]).map(\.mutated))
        #expect(mutated.isSuperset(of: ["let limit = capacity(0)\n", "let limit = capacity((8 + 1))\n"]))
    }
}
