import Glibc
import Testing
@testable import WireTransport

/// What the refused-connect tests rely on besides the refusal itself (which
/// `ConnectRaceOutcomeTests.aRefusedAddressFailsTheRaceWithTheConnectError` pins): nothing else can
/// bind a held `RefusingPort`'s port until it is closed, as it can a port merely found free.
@Suite struct RefusingPortTests {
    /// The errno of binding a fresh socket to 127.0.0.1:`port`, or 0 when the bind succeeds.
    private func errnoOfBinding(port: UInt16) throws -> Int32 {
        let other = SocketHandle(taking: try Sys.socket(domain: AF_INET, type: Sys.stream))
        defer { other.close() }
        do {
            try other.withDescriptor { fd throws(SystemError) in try Sys.bind(fd, loopback("127.0.0.1", port: port)) }
            return 0
        } catch { return error.errno }
    }

    @Test func aHeldPortCannotBeBoundByAnotherSocketUntilClosed() throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        #expect(try errnoOfBinding(port: refusing.port) == EADDRINUSE)
        refusing.close()
        #expect(try errnoOfBinding(port: refusing.port) == 0)
    }
}
