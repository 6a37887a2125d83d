// The goal rows of a run that measured little: every goal keeps its row, a packet the ratio step
// did not measure has no size in its figure, and the fuzz rate says whether the ratio step ran
// without it (BENCH_FUZZ=0) or did not run at all.

import Testing
@testable import BenchReport

@Suite struct GoalRowsUnmeasuredTests {
    static let codecMethod = "callgrind: inclusive instructions of each program's loop / iterations, same bytes (make bench's ratio step)"

    /// The eight codec goal rows, `measured` giving (value, goal) where a figure has them.
    static func codecRows(chatBytes: String, measured: [String: (String, String)] = [:]) -> [SummaryRow] {
        [("Encode", "SwiftProtobuf", "1.0"), ("Encode", "nanopb C", "1.05"), ("Decode", "nanopb C", "1.05"), ("Decode", "SwiftProtobuf", "1.0")]
            .flatMap { kind, program, limit in
                ["chat", "metrics"].map { packet in
                    let figure = "\(kind) ÷ \(program), \(packet) packet" + (packet == "chat" ? chatBytes : "")
                    let (value, goal) = measured[figure] ?? ("not measured in this run", "≤ \(limit): not measured")
                    return SummaryRow(figure: figure, value: value, goal: goal, method: codecMethod)
                }
            }
    }

    static func tailRows(fuzz: String) -> [SummaryRow] {
        [SummaryRow(figure: "Facade bytes per used message (full dead strip)", value: "not measured in this run", goal: "≤ 850 B: not measured",
                    method: "(SizeAll - SizeOne) / (messages - 1), facade-attributed symbols; whole binary includes call sites"),
         SummaryRow(figure: "Fuzz target `decode` (facades) ÷ `decode_c` (plain C), fixed inputs", value: fuzz, goal: "≥ 0.9: not measured",
                    method: "every seed of Corpus/seeds 200 times, ASan + libFuzzer release builds, core 0 (wireproof fuzz rate --fixed-only)")]
    }

    @Test func aRunThatMeasuredNothingHasEveryGoalRowNotMeasured() {
        #expect(GoalRows.rows(BenchResults()) == Self.codecRows(chatBytes: "") + Self.tailRows(fuzz: "not measured in this run"))
    }

    @Test func aRatioStepWithoutTheFuzzRateAndWithOnePacketSaysWhatItDidNotMeasure() {
        var r = BenchResults()
        r.ratios = CodecRatios(packets: [PacketInstructions(packet: "chat", bytes: 1_356, operations: ["decode": ["facade": 100, "c": 100]])],
                               fuzzFixed: nil, peakMemory: nil)
        let measured = ["Decode ÷ nanopb C, chat packet, 1,356 B": ("**1.00** (100 vs 100 instructions/op)", "≤ 1.05: met")]
        #expect(GoalRows.rows(r) == Self.codecRows(chatBytes: ", 1,356 B", measured: measured)
                + Self.tailRows(fuzz: "not measured in this run (BENCH_FUZZ=0)"))
    }
}
