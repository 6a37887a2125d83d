// The binutils the size report runs: a tool missing from PATH or exiting non-zero stops the report
// with a message naming it, its arguments and its stderr; the symbols of the `.o` files under a
// folder (a tiny object assembled by `as` here) and file sizes.

import Foundation
import Testing
@testable import BenchReport

@Suite struct BinaryToolRunTests {
    @Test func aToolsStdoutIsReturnedAndItsFailureOrAbsenceThrowsTheReason() throws {
        #expect(try BinaryTools.run("sh", ["-c", "echo listed"]) == "listed\n")
        #expect(throws: BenchReportError.toolFailed("sh -c echo bad >&2; exit 4 exited 4: bad\n")) {
            try BinaryTools.run("sh", ["-c", "echo bad >&2; exit 4"])
        }
        #expect(throws: BenchReportError.toolFailed("wireproof-no-such-tool is not on PATH")) {
            try BinaryTools.run("wireproof-no-such-tool", [])
        }
    }

    @Test func definedSymbolsComeFromEveryObjectFileUnderTheFolderAndNothingElse() throws {
        let folder = try ScratchFolder([
            "CNanopb.build/one.s": ".text\n.globl alpha\nalpha:\n ret\n.globl beta\nbeta:\n ret\n",
            "CNanopb.build/sub/two.s": ".text\n.globl gamma\ngamma:\n ret\n",
            "CNanopb.build/notes.txt": "not an object\n",
        ])
        defer { folder.remove() }
        for name in ["one", "sub/two"] {
            let base = folder.path + "/CNanopb.build/" + name
            _ = try BinaryTools.run("as", ["-o", base + ".o", base + ".s"])
        }
        #expect(try BinaryTools.definedSymbols(objectsUnder: folder.path + "/CNanopb.build") == ["alpha", "beta", "gamma"])
        #expect(try BinaryTools.definedSymbols(objectsUnder: folder.path + "/Missing.build") == [])
    }

    @Test func anObjectNmCannotReadStopsTheReport() throws {
        let folder = try ScratchFolder(["X.build/broken.o": "not an object\n"])
        defer { folder.remove() }
        #expect(throws: BenchReportError.self) { try BinaryTools.definedSymbols(objectsUnder: folder.path + "/X.build") }
    }

    @Test func aFilesSizeIsItsByteCount() throws {
        let folder = try ScratchFolder(["f.bin": String(repeating: "z", count: 1234)])
        defer { folder.remove() }
        #expect(try BinaryTools.fileSize(folder.path + "/f.bin") == 1234)
    }
}
