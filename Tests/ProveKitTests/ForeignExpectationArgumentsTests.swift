import Testing
@testable import ProveKit

/// The proofs `wireproof check-foreign` expects not to pass run without mutants (they stop before
/// mutation, or must crash on an exemplar), the option refusal with --honour-options, and the
/// option refusal shows only the first line naming the option, cut at 150 characters.
@Suite struct ForeignExpectationArgumentsTests {
    @Test func eachExpectedRefusalOrCrashRunsProveWithoutMutantsOnTheFolderGiven() {
        #expect(ForeignExpectation.proto2Groups.arguments("/c/proto2") == ["prove", "--proto-dir", "/c/proto2", "--mutants", "0"])
        #expect(ForeignExpectation.optionNotHonoured.arguments("/c/fixed")
                == ["prove", "--proto-dir", "/c/fixed", "--mutants", "0", "--honour-options"])
        #expect(ForeignExpectation.deviceCrash.arguments("/c/fixed") == ["prove", "--proto-dir", "/c/fixed", "--mutants", "0"])
    }

    @Test func theOptionRefusalShowsTheFirstLineNamingTheOptionCutAt150Characters() {
        let long = "fixed_count.proto: Message1.data: fixed_count = true is not supported " + String(repeating: "x", count: 200)
        let output = "prove: start\n" + long + "\nfixed_count.proto: Message3.data: fixed_count = true again\n"
        #expect(ForeignExpectation.optionNotHonoured.shown(output) == [String(long.prefix(150))])
        #expect(ForeignExpectation.optionNotHonoured.shown("prove: nothing of the kind\n").isEmpty)
    }
}
