// What the suites that pass a printer into a command collect: lines from any thread, in order.

import Foundation

/// Lines printed from any thread, in the order they arrived.
final class CollectedLines: @unchecked Sendable {
    // @unchecked: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
