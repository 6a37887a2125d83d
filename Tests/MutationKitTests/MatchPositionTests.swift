import Testing
@testable import MutationKit

@Suite struct MatchPositionTests {
    @Test func eachMatchPositionGivesItsOwnMutant() throws {
        let set = try RuleSet(text: " ==(?= ) ==>  !=\n", path: "t")
        #expect(set.mutations(of: ["a == b || c == d\n"]).map(\.mutated) == ["a != b || c == d\n", "a == b || c != d\n"])
    }

    @Test func aSearchFromInsideTheLineStillSeesTheTextBeforeIt() throws {
        // `^` anchors at the real start only, and `\b` sees the character before the search start.
        let anchored = try RuleSet(text: "(^\\s*)x ==> \\1y\n", path: "t")
        #expect(anchored.mutations(of: ["  x x\n"]).map(\.mutated) == ["  y x\n"])
        let bounded = try RuleSet(text: "\\btrue\\b ==> false\n", path: "t")
        #expect(bounded.mutations(of: ["untrue || true\n"]).map(\.mutated) == ["untrue || false\n"])
    }

    @Test func overlappingMatchesAreEachTaken() throws {
        let set = try RuleSet(text: "aa ==> b\n", path: "t")
        #expect(set.mutations(of: ["aaa\n"]).map(\.mutated) == ["ba\n", "ab\n"])
    }

    @Test func theSameMutantFromTwoRulesIsKeptOnce() throws {
        let set = try RuleSet(text: " \\+ 1\\b(?!\\.) ==>  + 2\n \\+ 1\\b ==>  + 2\n", path: "t")
        #expect(set.mutations(of: ["n + 1\n"]).count == 1)
    }

    @Test func aMutantLineAlwaysEndsInANewlineAndKeepsItsLineNumber() throws {
        let set = try RuleSet(text: "x$ ==> y\n", path: "t")
        #expect(set.mutations(of: ["a\n", "\n", "x"]) == [LineMutation(line: 3, mutated: "y\n", rule: "x$ ==> y")])
    }
}
