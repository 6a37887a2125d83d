// Everything a bench step prints, collected through its clock: progress lines with their seconds
// read as "[NAME]", so a test compares whole lines without depending on how long a step took.

import Foundation
@testable import BenchReport

/// The lines a `ProgressClock` emitted, in order.
final class PrintedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    /// A clock named `name` whose every line lands here.
    func clock(_ name: String = "test") -> ProgressClock {
        ProgressClock(name: name) { line in self.lock.withLock { self.collected.append(line) } }
    }

    /// The lines so far, "[NAME   SSs] " read as "[NAME] " and `replacing` applied to each.
    func lines(replacing patterns: [(String, String)] = []) -> [String] {
        lock.withLock { collected }.map { line in
            patterns.reduce(line.replacingOccurrences(of: #"^\[(\S+) +\d+s\] "#, with: "[$1] ", options: .regularExpression)) {
                $0.replacingOccurrences(of: $1.0, with: $1.1, options: .regularExpression)
            }
        }
    }
}
