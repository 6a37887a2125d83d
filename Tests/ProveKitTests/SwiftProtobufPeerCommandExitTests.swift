import ArgumentParser
import Testing
@testable import ProveKit

/// `wireproof swiftprotobuf-peer`'s exit statuses: 3 when the peer is unavailable here, 1 for any
/// other error, 0 when the work is done.
@Suite struct SwiftProtobufPeerCommandExitTests {
    private struct Other: Error {}

    @Test func anUnavailablePeerExitsThreeAndAnyOtherErrorOne() throws {
        #expect(throws: ExitCode(3)) { try SwiftProtobufPeerCommand.run { _ in throw SwiftProtobufPeerError.unavailable("no network") } }
        #expect(throws: ExitCode.failure) { try SwiftProtobufPeerCommand.run { _ in throw SwiftProtobufPeerError.failed("broken") } }
        #expect(throws: ExitCode.failure) { try SwiftProtobufPeerCommand.run { _ in throw Other() } }
        try SwiftProtobufPeerCommand.run { _ in nil }
    }
}
