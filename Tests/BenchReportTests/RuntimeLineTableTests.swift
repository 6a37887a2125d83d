// `wirebench report lines`: one row per runtime file (named without its folder), names padded to
// the longest, then the totals of lines and code lines over all files.

import Testing
@testable import BenchReport

@Suite struct RuntimeLineTableTests {
    @Test func eachFileGetsARowUnderTheHeaderAndTheTotalsAddEveryFile() throws {
        let folder = try ScratchFolder([
            "runtime/LongerName.swift": "/* x\n y */\nlet z = 3\n\n",
            "runtime/Short.swift": "let a = 1\n// c\nlet b = 2\n",
        ])
        defer { folder.remove() }
        var lines: [String] = []
        let counted = try RuntimeLines.report([folder.path + "/runtime/LongerName.swift", folder.path + "/runtime/Short.swift"],
                                              print: { lines.append($0) })
        #expect(counted == RuntimeLineCount(lines: 7, codeLines: 3, files: 2))
        #expect(lines == [
            "  file               lines    code",
            "  LongerName.swift       4       1",
            "  Short.swift            3       2",
            "  total                  7       3   (code = not blank, not only a comment)",
        ])
    }

    @Test func noFilesGiveTheHeaderAZeroTotalAndNoRows() throws {
        var lines: [String] = []
        let counted = try RuntimeLines.report([], print: { lines.append($0) })
        #expect(counted == RuntimeLineCount(lines: 0, codeLines: 0, files: 0))
        #expect(lines == [
            "  file   lines    code",
            "  total       0       0   (code = not blank, not only a comment)",
        ])
    }
}
