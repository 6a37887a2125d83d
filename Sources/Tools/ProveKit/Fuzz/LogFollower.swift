// A campaign's progress as it happens: the new complete lines of the log libFuzzer is writing.

import Foundation

/// Reads a growing log from where it last stopped and picks its new progress lines.
struct LogFollower {
    let path: String
    private var offset: UInt64 = 0
    private var partial = Data()

    init(path: String) { self.path = path }

    /// The progress lines completed since the last call; with `final`, an unterminated last line
    /// too. Lines are cut at newline bytes, so a character split across two reads stays whole.
    mutating func newProgressLines(final: Bool) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil else { return [] }
        let chunk = (try? handle.readToEnd()) ?? Data()
        offset += UInt64(chunk.count)
        partial.append(chunk)
        var lines = partial.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let last = lines.removeLast()
        partial = final ? Data() : Data(last)
        if final { lines.append(last) }
        return lines.map { String(decoding: $0, as: UTF8.self) }.filter { CampaignReport.isProgress(Substring($0)) }
    }
}
