import Testing
@testable import MutationKit

@Suite struct DirectiveTests {
    let rules = """
        ^\\s*import  ==> DO_NOT_MUTATE
        precondition ==> DO_NOT_MUTATE
        // ==> SKIP_MUTATING_REST
         <(?= ) ==>  <=
        \\btrue\\b ==> false

        """

    @Test func aLineADoNotMutatePatternMatchesAnywhereIsLeftAlone() throws {
        let set = try RuleSet(text: rules, path: "t")
        #expect(set.mutations(of: ["import true\n", "precondition(a < b)\n"]).isEmpty)
        #expect(set.mutations(of: ["x(true)\n"]).count == 1)
    }

    @Test func noMutationStartsAtOrAfterASkipMutatingRestMatch() throws {
        let set = try RuleSet(text: rules, path: "t")
        #expect(set.mutations(of: ["a < b // true < false\n"]).map(\.mutated) == ["a <= b // true < false\n"])
        #expect(set.mutations(of: ["// a < b\n"]).isEmpty)
    }

    @Test func dashBlockCommentsAreSkippedLikeCBlockComments() throws {
        let set = try RuleSet(text: rules, path: "t")
        #expect(set.mutations(of: ["{- one line -} true\n", "true\n"]).map(\.line) == [2])
        #expect(set.mutations(of: ["{- open\n", "true\n", "-}\n", "true\n"]).map(\.line) == [4])
        #expect(set.mutations(of: ["true -} {- reopened\n", "true\n", "-}\n", "true\n"]).map(\.line) == [4],
                "a close before the open does not end the comment the open starts")
    }

    @Test func blockCommentsAndLinesOpeningThemAreSkipped() throws {
        let set = try RuleSet(text: rules, path: "t")
        let lines = ["a < b /* one-line */\n", "/* open\n", "true\n", "close */\n", "true\n"]
        #expect(set.mutations(of: lines).map(\.line) == [5])
    }
}
