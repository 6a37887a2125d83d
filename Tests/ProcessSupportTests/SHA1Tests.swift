import Testing
import ProcessSupport

/// The in-process SHA-1 against the standard's test vectors (what sha1sum prints for them).
@Suite struct SHA1Tests {
    @Test func sha1MatchesTheStandardsTestVectors() {
        #expect(SHA1.hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(SHA1.hex(String(repeating: "a", count: 1000)) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
    }

    @Test func bytesAndTheirTextHashAlike() {
        #expect(SHA1.hex([0x61, 0x62, 0x63]) == SHA1.hex("abc"))
    }
}
