import Testing
@testable import ProveKit

/// The proofs `wireproof check-foreign` expects not to pass run without mutants (they stop before
/// mutation, or must crash on an exemplar), the option refusal with --honour-options, and the
/// option refusal shows only the first line naming the option, cut at 150 characters; the group
/// refusal shows at most three lines naming groups, the device crash at most two crash lines.
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

    @Test func theGroupRefusalShowsAtMostThreeLinesNamingGroupsWhateverTheirCase() {
        let output = "prove: oracle 3/3\nGroup one\n\nno match\ngroup two\nGROUPS three\ngroup four\n"
        #expect(ForeignExpectation.proto2Groups.shown(output) == ["Group one", "group two", "GROUPS three"])
    }

    @Test func theDeviceCrashShowsTheFirstTwoCrashLinesCutAt150Characters() {
        let long = "FAIL device: Message4.strings crashed " + String(repeating: "y", count: 200)
        let output = ["FAIL device: Message1.x refused", long, "prove: crashed elsewhere", "FAIL device: Message4.other crashed",
                      "FAIL device: Message5 crashed"].joined(separator: "\n")
        #expect(ForeignExpectation.deviceCrash.shown(output) == [String(long.prefix(150)), "FAIL device: Message4.other crashed"])
    }

    @Test func blankLinesAreNotLinesOfTheOutput() {
        #expect(ForeignExpectation.lines("a\n\n\nb\n") == ["a", "b"])
    }
}
