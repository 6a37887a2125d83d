import Testing
@testable import MutationKit

@Suite struct StringLiteralFilterTests {
    @Test func aMutantChangingOnlyALiteralsWordingIsDropped() throws {
        let set = try RuleSet(text: " == ==>  !=\n\\btrue\\b ==> false\n", path: "t")
        #expect(set.mutations(of: ["log(\"a == b is true\")\n"]).isEmpty)
        #expect(set.mutations(of: ["f(\"x == y\", a == b)\n"]).map(\.mutated) == ["f(\"x == y\", a != b)\n"])
    }

    @Test func emptyingALiteralOrShrinkingItToOneCharacterStillCounts() {
        #expect(!StringLiterals.onlyLiteralsDiffer("f(\"ab\")\n", "f(\"\")\n"))
        #expect(!StringLiterals.onlyLiteralsDiffer("f(\"ab\")\n", "f(\"a\")\n"))
        #expect(StringLiterals.onlyLiteralsDiffer("f(\"ab\")\n", "f(\"abc\")\n"))
        #expect(StringLiterals.onlyLiteralsDiffer("f(\"a\")\n", "f(\"b\")\n"))
        #expect(!StringLiterals.onlyLiteralsDiffer("f(\"ab\", 1)\n", "f(\"ab\", 2)\n"))
    }
}
