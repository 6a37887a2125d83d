import ProofSupport
import Testing

@Suite struct RootPathTests {
    @Test func aPathBelowTheRootIsShownRelativeToIt() {
        #expect(RootPath.inside("/w", "/w/.scratch/foreign/results/a.log") == ".scratch/foreign/results/a.log")
        #expect(RootPath.shown("/w/.scratch/foreign/results/a.log", under: "/w") == ".scratch/foreign/results/a.log")
        #expect(RootPath.inside("/w", "/w/a") == "a")
    }

    @Test func aSiblingThatSharesTheRootsLettersIsOutside() {
        #expect(RootPath.inside("/w", "/wx/a.log") == nil)
        #expect(RootPath.shown("/wx/a.log", under: "/w") == "/wx/a.log")
    }

    @Test func theRootItselfAndPathsElsewhereAreShownAsGiven() {
        #expect(RootPath.inside("/w", "/w") == nil)
        #expect(RootPath.shown("/w", under: "/w") == "/w")
        #expect(RootPath.inside("/w", "/tmp/a.log") == nil)
        #expect(RootPath.shown("/tmp/a.log", under: "/w") == "/tmp/a.log")
    }
}
