// The figures `wireproof fuzz rate` prints, from what the fuzzers wrote: coverage counters, the
// sizes of a campaign's new inputs, rates per CPU second and the facade / plain C ratios. Pure, so
// tests pin the arithmetic and the lines `make bench` reads (RatioReport.fuzzFixedRatio).

/// Arithmetic and text of the rate measurement.
enum FuzzRateFigures {
    /// The inline 8-bit counters a libFuzzer binary reports at start-up ("(N inline 8-bit
    /// counters)"), the first such line's; nil when none says.
    static func counters(in output: String) -> Int? {
        for line in output.split(separator: "\n") {
            guard let end = line.range(of: " inline 8-bit counters)") else { continue }
            let before = line[..<end.lowerBound]
            guard let open = before.lastIndex(of: "(") else { continue }
            if let value = Int(before[before.index(after: open)...]) { return value }
        }
        return nil
    }

    /// "N new inputs, mean M B, median K B" for a campaign's new corpus entries (integer mean,
    /// truncated; the median is the lower middle of an even count); empty when there are none.
    static func sizesSummary(_ sizes: [Int]) -> String {
        guard !sizes.isEmpty else { return "" }
        let sorted = sizes.sorted()
        let mean = sorted.reduce(0, +) / sorted.count
        return "\(sorted.count) new inputs, mean \(mean) B, median \(sorted[(sorted.count + 1) / 2 - 1]) B"
    }

    /// Executions per CPU second, truncated to a whole number; 0 when no CPU time was measured.
    static func rate(executions: Int, cpuSeconds: Double) -> Int {
        cpuSeconds > 0 ? Int(Double(executions) / cpuSeconds) : 0
    }

    /// `a / b` truncated (not rounded) to two decimals, with a leading zero: "0.91". "?" when `b`
    /// is not positive.
    static func ratio(_ a: Double, _ b: Double) -> String {
        guard b > 0 else { return "?" }
        let hundredths = Int((a / b * 100).rounded(.towardZero))
        let tail = hundredths % 100
        return "\(hundredths / 100)." + (tail < 10 ? "0" : "") + "\(tail)"
    }

    /// CPU seconds as printed: two decimals.
    static func seconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let tail = hundredths % 100
        return "\(hundredths / 100)." + (tail < 10 ? "0" : "") + "\(tail)"
    }

    /// The line `make bench` reads: the fixed-input throughput of the facade against plain C, as
    /// the plain C target's CPU seconds over the facade's for the same inputs.
    static func fixedRatioLine(facadeSeconds: Double, plainCSeconds: Double) -> String {
        "fuzz-rate: fixed inputs, facade / plain C throughput = " + ratio(plainCSeconds, facadeSeconds)
    }
}
