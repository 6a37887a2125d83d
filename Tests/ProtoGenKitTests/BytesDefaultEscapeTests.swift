// A bytes default as a descriptor set spells it: C escapes, read the way a C compiler reads the
// same literal (protoc writes octal; hand-made or other tools' descriptor sets may use the rest).

import Testing
@testable import ProtoGenKit

@Suite struct BytesDefaultEscapeTests {
    @Test func namedEscapesAreTheirControlBytes() {
        #expect(FieldDefaults.unescapeCBytes(#"a\nb\rc\td"#) == Array("a\nb\rc\td".utf8))
    }

    @Test func aHexEscapeTakesEveryHexDigitThatFollowsAndKeepsTheLowByte() {
        #expect(FieldDefaults.unescapeCBytes(#"\x41"#) == [0x41])
        #expect(FieldDefaults.unescapeCBytes(#"\x4A\x7f"#) == [0x4a, 0x7f])
        #expect(FieldDefaults.unescapeCBytes(#"\x1234"#) == [0x34], "C reads all digits; the value is truncated to a byte")
        #expect(FieldDefaults.unescapeCBytes(#"\x4g"#) == [0x04, 0x67], "a non-hex character ends the escape")
        #expect(FieldDefaults.unescapeCBytes(#"\x"#) == [0], "no digits: zero")
    }

    @Test func anyOtherEscapedCharacterIsItselfAndALoneTrailingBackslashIsKept() {
        #expect(FieldDefaults.unescapeCBytes(#"\"\'\?"#) == Array("\"'?".utf8))
        #expect(FieldDefaults.unescapeCBytes(#"end\"#) == Array(#"end\"#.utf8))
    }
}
