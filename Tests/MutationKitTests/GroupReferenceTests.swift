import Testing
@testable import MutationKit

@Suite struct GroupReferenceTests {
    @Test func backslashDigitAndNamedNumberFormsAreGroups() {
        #expect(MutationRule.replacementPieces("\\1(\\2 + 1)\\3") == [.group(1), .text("("), .group(2), .text(" + 1)"), .group(3)])
        // `\g<1>0` is group 1 then the text 0, where `\10` would be group 10.
        #expect(MutationRule.replacementPieces("\\g<1>0\\3") == [.group(1), .text("0"), .group(3)])
        #expect(MutationRule.replacementPieces("\\10") == [.group(10)])
    }

    @Test func escapesFollowPythonsTemplateRules() {
        #expect(MutationRule.replacementPieces("a\\\\b\\nc") == [.text("a\\b\nc")])
        #expect(MutationRule.replacementPieces("|| true \\(") == [.text("|| true \\(")])
        #expect(MutationRule.replacementPieces("\\q") == nil)
        #expect(MutationRule.replacementPieces("\\g<name>") == nil)
    }

    @Test func aGroupThatTookNoPartInTheMatchBecomesEmpty() throws {
        let set = try RuleSet(text: "(^\\s*)(el)?if (.+):\\s*$ ==> \\1\\2if True:\n", path: "t")
        #expect(set.mutations(of: ["    if x > 1:\n"]).map(\.mutated) == ["    if True:\n"])
        #expect(set.mutations(of: ["elif x:\n"]).map(\.mutated) == ["elif True:\n"])
    }

    @Test func theIntegerConstantRulesRewriteEachNumberInPlace() throws {
        let set = try RuleSet(text: "([^\\w.$])(\\d+)([^\\w.]) ==> \\g<1>0\\3\n([^\\w.$])(\\d+)([^\\w.]) ==> \\1(\\2 + 1)\\3\n", path: "t")
        #expect(set.mutations(of: ["let n = f(12, 3)\n"]).map(\.mutated) == [
            "let n = f(0, 3)\n", "let n = f(12, 0)\n", "let n = f((12 + 1), 3)\n", "let n = f(12, (3 + 1))\n",
        ])
    }
}
