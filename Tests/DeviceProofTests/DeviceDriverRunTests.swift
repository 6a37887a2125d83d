import DeviceProof
import Foundation
import Testing

/// `DeviceDriver.run` against a stand-in driver: a crash before any answer, the restart after it,
/// and the exit statuses that are failures rather than crashes.
@Suite struct DeviceDriverRunTests {
    static let requests: [(index: Int, bytes: [UInt8])] = [(0, [0x08, 0x01]), (1, [0x08, 0x02])]

    /// The description of the error `run` throws on `requests`, nil when it returns.
    static func failure(_ standIn: StandInDeviceDriver, _ requests: [(index: Int, bytes: [UInt8])] = requests) -> String? {
        do {
            _ = try standIn.driver.run(requests)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aDriverThatDiesBeforeWritingAnyAnswerCrashedOnTheFirstAndRunsAgainForTheRest() throws {
        let standIn = try StandInDeviceDriver(runs: [([], 139), ([.accepted([0x08, 0x02])], 0)], dying: [0])
        defer { standIn.remove() }
        #expect(try standIn.driver.run(Self.requests) == [.crashed(11), .accepted([0x08, 0x02])])
        // The second run was sent only the record after the crash: index 1, length 2, its bytes.
        let resent = try Data(contentsOf: URL(fileURLWithPath: standIn.folder + "/work/requests.bin"))
        #expect([UInt8](resent) == [1, 0, 0, 0, 2, 0, 0, 0, 0x08, 0x02])
    }

    /// An answer with an empty body is its five header bytes alone; the last one ends the file.
    @Test func anEmptyAnswerAtTheEndOfTheFileIsRead() throws {
        let standIn = try StandInDeviceDriver(runs: [([.accepted([0x08, 0x01]), .accepted([])], 0)])
        defer { standIn.remove() }
        #expect(try standIn.driver.run(Self.requests) == [.accepted([0x08, 0x01]), .accepted([])])
    }

    @Test func anExitStatusOf128OrLessIsAFailureNotACrash() throws {
        let standIn = try StandInDeviceDriver(runs: [([], 128)], dying: [0])
        defer { standIn.remove() }
        #expect(Self.failure(standIn) == "the device driver failed (exit 128) after 0 answers")
    }

    @Test func aCrashAfterTheLastAnswerIsAFailure() throws {
        let standIn = try StandInDeviceDriver(runs: [([.accepted([1]), .accepted([2])], 139)])
        defer { standIn.remove() }
        #expect(Self.failure(standIn) == "the device driver failed (exit 139) after 2 answers")
    }
}
