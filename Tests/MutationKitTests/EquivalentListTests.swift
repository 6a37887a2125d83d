// scripts/mutation/equivalent.txt against the rules and the code of this repository: an entry
// whose mutant the rules no longer make (the line changed, or an operator stopped producing it) is
// dead text that would silently stop excusing anything; it must go with the change that killed it.

import Testing
@testable import MutationKit
import TestSupport

@Suite struct EquivalentListTests {
    @Test func everyListedEquivalentIsAMutantTheRulesStillMake() throws {
        let listed = try MutationRun.equivalent(root: repositoryRoot)
        #expect(!listed.isEmpty)
        var source = MutantSource(root: repositoryRoot)
        var made: Set<String> = []
        for layer in Layer.all { made.formUnion(try source.mutants(of: layer).map(\.key)) }
        let stale = listed.keys.filter { !made.contains($0) }.sorted()
        #expect(stale.isEmpty, "listed as equivalent, but no rule makes them any more: \(stale)")
    }
}
