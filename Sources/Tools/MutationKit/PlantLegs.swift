// Which sanitizer leg must report which planted bug, how each leg runs in the scratch copy, and
// when a leg counts as having caught its plant: `wiremutate plant-legs` (PlantLegsRun) over this
// table. Pure: no process is started here, so MutationKitTests pin the table and the verdict.

/// A leg that must report a planted bug, run as CI runs it but narrowed by a filter to the suites
/// that reach the planted code, so a run takes minutes rather than the whole matrix.
public enum PlantLeg: String, CaseIterable, Sendable {
    case asan, tsan, valgrind, accounting

    /// The shell command of the leg, run from the scratch copy's root.
    public var command: String {
        switch self {
        case .asan: return "bash scripts/sanitize.sh asan --filter NanopbRuntimeTests"
        case .tsan: return "bash scripts/sanitize.sh tsan --no-parallel --filter ConcurrencyStressTests"
        case .valgrind: return "bash scripts/valgrind.sh check"
        case .accounting: return "swift build --build-tests && swift test --skip-build --filter NanopbRuntimeTests"
        }
    }

    /// The report (a regular expression) this leg must print for `plant`: the tool's own words,
    /// never a test assertion's.
    public func report(for plant: String) -> String {
        switch self {
        case .asan: return plant == "leak" ? "ERROR: LeakSanitizer: detected memory leaks" : "ERROR: AddressSanitizer: heap-buffer-overflow"
        case .tsan: return "WARNING: ThreadSanitizer: data race"
        case .valgrind:
            switch plant {
            case "leak": return "definitely lost: [1-9]"
            case "nanopb": return "Invalid write of size"
            default: return "Invalid read of size"
            }
        case .accounting: return "live allocations -?[0-9]+ -> -?[0-9]+"
        }
    }
}

/// A leg's verdict on one plant.
public enum PlantLegVerdict: Equatable, Sendable {
    /// The leg failed and its log holds the report (its first match).
    case caught(report: String)
    /// The leg passed, ran out of time, or failed without the report.
    case notCaught(reason: String)

    public var isCaught: Bool { if case .caught = self { return true } else { return false } }

    public var text: String {
        switch self {
        case .caught(let report): return "caught (report: \(report))"
        case .notCaught(let reason): return "NOT CAUGHT (\(reason))"
        }
    }
}

public enum PlantLegs {
    /// The plants of the sanitizer legs, in the order a run without names takes them.
    public static let plants = ["leak", "oob-typed", "oob-raw", "race", "nanopb"]

    /// The legs that must report `plant`; empty for a plant that is not one of `plants`.
    public static func legs(for plant: String) -> [PlantLeg] {
        switch plant {
        case "leak": return [.asan, .valgrind, .accounting]
        case "oob-typed", "oob-raw", "nanopb": return [.asan, .valgrind]
        case "race": return [.tsan]
        default: return []
        }
    }

    /// The verdict on a leg that ended with `outcome` and wrote `log`: caught only when the leg
    /// failed (not passed, not timed out) and the log matches `report`.
    public static func verdict(outcome: StepOutcome, log: String, report: String) -> PlantLegVerdict {
        let match = firstMatch(of: report, in: log)
        switch outcome {
        case .ok: return .notCaught(reason: "the leg passed" + (match == nil ? "" : ", though its log has '\(report)'"))
        case .timeout: return .notCaught(reason: "the leg ran out of time")
        case .failed:
            guard let match else { return .notCaught(reason: "the leg failed, but its log has no '\(report)'") }
            return .caught(report: match)
        }
    }

    /// The first text in `log` matching the regular expression `pattern`; nil when none does or
    /// the pattern does not compile.
    public static func firstMatch(of pattern: String, in log: String) -> String? {
        guard let regex = try? Regex(pattern), let match = try? regex.firstMatch(in: log) else { return nil }
        return String(log[match.range])
    }

    /// One row of the summary: plant, leg, seconds, verdict, in columns.
    public static func row(plant: String, leg: PlantLeg, seconds: Int, verdict: PlantLegVerdict) -> String {
        pad(plant, 10) + " " + pad(leg.rawValue, 11) + " " + String(repeating: " ", count: max(0, 4 - String(seconds).count))
            + "\(seconds)s  " + verdict.text
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
