import Testing
@testable import ProtoGenKit

/// Enum case names drop the enum's own name as a prefix (case and underscores ignored) only when a
/// letter follows it; otherwise the value keeps its whole name, as if the enum were called otherwise.
@Suite struct EnumCaseNameTests {
    private func unstripped(_ value: String) -> String { Naming.enumCaseName(value, enumName: "Unrelated") }

    @Test func thePrefixGoesWhenALetterFollowsIt() {
        #expect(Naming.enumCaseName("COLOR_RED", enumName: "Color") == unstripped("RED"))
        #expect(Naming.enumCaseName("color__dark_red", enumName: "Color") == unstripped("dark_red"))
    }

    @Test func aValueThatIsAllOrPartOfThePrefixKeepsItsName() {
        for value in ["COLOR", "COLOR_", "COL", "C_O", "_"] {
            #expect(Naming.enumCaseName(value, enumName: "Color") == unstripped(value), "\(value)")
        }
        #expect(Naming.enumCaseName("COLOR_2", enumName: "Color") == unstripped("COLOR_2"), "a digit follows")
    }
}
