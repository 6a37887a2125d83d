import Glibc
import Testing
@testable import WireTransport

/// The descriptor owner every socket goes through: once closed it never hands its old number to
/// a system call (the kernel may already have given that number to another socket).
@Suite struct SocketHandleTests {
    @Test func aClosedHandleRefusesUseWithEBADFAndNeverRunsTheCall() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        let handle = SocketHandle(taking: fd)
        #expect(handle.isOpen)
        #expect(try handle.withDescriptor { $0 } == fd)
        handle.close()
        #expect(!handle.isOpen)
        var ran = false
        do {
            try handle.withDescriptor { _ in ran = true }
            Issue.record("a closed handle ran the call")
        } catch {
            #expect(error.call == "use after close" && error.errno == EBADF)
        }
        #expect(!ran)
        handle.close()  // a second close does nothing
        #expect(!handle.isOpen)
    }
}
