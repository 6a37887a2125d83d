// The migration sample (MovingFromSwiftProtobuf.swift) against the facades. Its expected transcript,
// transcript.txt, is what a reader of the sample expects it to print; `wireproof swiftprotobuf-peer migration-sample`
// checks SwiftProtobuf's build of the same file against the same transcript, so both sides are held
// to one text.

import Foundation
import Testing

@Suite struct MigrationSampleTests {
    static let transcriptPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("transcript.txt").path

    @Test func theMigrationSamplePrintsTheSameTranscriptThroughTheFacades() throws {
        let expected = try String(contentsOfFile: Self.transcriptPath, encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let printed = movingFromSwiftProtobufTranscript()
        #expect(printed.count == expected.count, "printed \(printed.count) lines, transcript.txt has \(expected.count)")
        for (index, (line, wanted)) in zip(printed, expected).enumerated() {
            #expect(line == wanted, "line \(index + 1) of transcript.txt")
        }
    }
}
