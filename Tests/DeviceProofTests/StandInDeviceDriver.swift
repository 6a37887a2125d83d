// A stand-in for the compiled device driver: a /bin/sh script that answers each of its runs from
// a prepared file and exits with a prepared status, so DeviceProof.run can be judged on answers
// chosen by the test (a crash included) without building nanopb. `--fields` reports no sizes.

import DeviceProof
import Foundation

struct StandInDeviceDriver {
    /// Owned by this value; removed by `remove()`.
    let folder: String
    var driver: DeviceDriver { DeviceDriver(executable: folder + "/driver", workDirectory: folder + "/work") }

    /// `runs[i]` answers the i-th run of the driver, then it exits with that run's status. A run in
    /// `dying` exits with its status before it opens the response file (a crash on the first record).
    init(runs: [(answers: [DeviceAnswer], status: Int32)], dying: Set<Int> = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-standin-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            d=\(folder)
            [ "$1" = --fields ] && exit 0
            n=$(cat "$d/count" 2>/dev/null || echo 0)
            echo $((n + 1)) > "$d/count"
            [ -f "$d/answers.$n" ] || exit $(cat "$d/status.$n" 2>/dev/null || echo 3)
            cat "$d/answers.$n" > "$2"
            exit $(cat "$d/status.$n")
            """
        try script.write(toFile: folder + "/driver", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/driver")
        for (index, run) in runs.enumerated() {
            if !dying.contains(index) {
                try Data(run.answers.flatMap(Self.record)).write(to: URL(fileURLWithPath: folder + "/answers.\(index)"))
            }
            try "\(run.status)".write(toFile: folder + "/status.\(index)", atomically: true, encoding: .utf8)
        }
    }

    /// The driver's answer record: status 0/1/2, a 4-byte little-endian length, the body.
    static func record(_ answer: DeviceAnswer) -> [UInt8] {
        let (status, body): (UInt8, [UInt8])
        switch answer {
        case .accepted(let bytes): (status, body) = (0, bytes)
        case .refused(let text): (status, body) = (1, Array(text.utf8))
        case .reencodeFailed(let text): (status, body) = (2, Array(text.utf8))
        case .crashed: fatalError("a crash is an exit status, not a record")
        }
        let n = UInt32(body.count)
        return [status, UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)] + body
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
