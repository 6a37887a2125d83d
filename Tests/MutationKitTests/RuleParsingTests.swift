import Foundation
import Testing
@testable import MutationKit
import TestSupport

@Suite struct RuleParsingTests {
    @Test func commentsBlankLinesAndLinesWithoutAnArrowAreNotRules() throws {
        let rules = try MutationRule.parse("# a ==> b (a comment that looks like a rule)\n\nno arrow here\nx ==> y\n", path: "t.rules")
        #expect(rules.map(\.source) == ["x ==> y"])
        #expect(rules[0].location == "t.rules:4")
    }

    @Test func aTrailingArrowWithoutASpaceMeansAnEmptyReplacement() throws {
        let rules = try MutationRule.parse(" \\+ 1\\b ==>\n", path: "t.rules")
        #expect(rules.count == 1)
        #expect(rules[0].kind == .replace([]))
    }

    @Test func theReplacementEndsAtASecondArrow() throws {
        let rules = try MutationRule.parse("a ==> b ==> c\n", path: "t.rules")
        #expect(rules[0].kind == .replace([.text("b")]))
    }

    @Test func directivesAreRecognisedByTheirWholeReplacement() throws {
        let rules = try MutationRule.parse("^\\s*import  ==> DO_NOT_MUTATE\n// ==> SKIP_MUTATING_REST\nx ==> DO_NOT_MUTATE_NOT\n", path: "t")
        #expect(rules.map(\.kind) == [.doNotMutate, .skipRest, .replace([.text("DO_NOT_MUTATE_NOT")])])
    }

    @Test func aPatternICUCannotCompileIsATypedErrorNamingTheLine() {
        #expect(throws: RuleFileError.badPattern(path: "t.rules", line: 2, pattern: "(unclosed")) {
            try MutationRule.parse("ok ==> fine\n(unclosed ==> x\n", path: "t.rules")
        }
    }

    @Test func aReplacementNamingAMissingGroupIsATypedError() {
        #expect(throws: RuleFileError.badReplacement(path: "t.rules", line: 1, replacement: "\\2")) {
            try MutationRule.parse("(a) ==> \\2\n", path: "t.rules")
        }
    }

    @Test func aClassOpeningWithABracketKeepsItAsAMemberAsPythonDoes() throws {
        #expect(MutationRule.icuPattern("[^]=]*") == "[^\\]=]*")
        #expect(MutationRule.icuPattern("[]x]") == "[\\]x]")
        #expect(MutationRule.icuPattern("\\[a\\]") == "\\[a\\]")
        let set = try RuleSet(text: "(\\[\\[? [^]=]*) = ==>  \\1 != \n", path: "t")
        #expect(set.mutations(of: ["[ \"$a\" = b ]\n"]).map(\.mutated) == [" [ \"$a\" !=  b ]\n"])
    }

    @Test func everyProjectRuleFileParses() throws {
        for language in ["swift", "c", "sh", "py"] {
            let set = try RuleSet(contentsOf: RepositoryPaths.root + "/scripts/mutation/\(language).rules")
            #expect(!set.rules.isEmpty, "\(language).rules")
        }
    }
}

/// The repository this test file is in.
enum RepositoryPaths {
    static let root = repositoryRoot
}
