import ArgumentParser
import Testing
@testable import ProveKit

/// `wireproof swiftprotobuf-peer`'s exit statuses: 3 when the peer is unavailable here, 1 for any
/// other error, 0 when the work is done; the path built is the one line on standard output, and
/// an error one line on standard error, the unavailable reason after "swiftprotobuf-peer: unavailable: ".
@Suite struct SwiftProtobufPeerCommandExitTests {
    private struct Other: Error {}

    @Test func anUnavailablePeerExitsThreeAndAnyOtherErrorOne() throws {
        #expect(throws: ExitCode(3)) { try SwiftProtobufPeerCommand.run { _ in throw SwiftProtobufPeerError.unavailable("no network") } }
        #expect(throws: ExitCode.failure) { try SwiftProtobufPeerCommand.run { _ in throw SwiftProtobufPeerError.failed("broken") } }
        #expect(throws: ExitCode.failure) { try SwiftProtobufPeerCommand.run { _ in throw Other() } }
        try SwiftProtobufPeerCommand.run { _ in nil }
    }

    @Test func thePathBuiltIsPrintedAloneAndAnErrorIsOneLineNamingIt() throws {
        var out: [String] = [], err: [String] = []
        try SwiftProtobufPeerCommand.run(out: { out.append($0) }, err: { err.append($0) }) { _ in "/built/protoc-gen-swift" }
        #expect(out == ["/built/protoc-gen-swift"] && err.isEmpty)
        out = []
        try SwiftProtobufPeerCommand.run(out: { out.append($0) }, err: { err.append($0) }) { _ in nil }
        #expect(out.isEmpty && err.isEmpty)
        #expect(throws: ExitCode(3)) {
            try SwiftProtobufPeerCommand.run(out: { out.append($0) }, err: { err.append($0) }) { _ in throw SwiftProtobufPeerError.unavailable("no network") }
        }
        #expect(throws: ExitCode.failure) {
            try SwiftProtobufPeerCommand.run(out: { out.append($0) }, err: { err.append($0) }) { _ in throw SwiftProtobufPeerError.failed("broken build") }
        }
        #expect(out.isEmpty)
        #expect(err == ["swiftprotobuf-peer: unavailable: no network", "swiftprotobuf-peer: broken build"])
    }
}
