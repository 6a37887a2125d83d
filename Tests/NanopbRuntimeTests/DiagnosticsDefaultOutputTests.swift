// Without a handler, a runtime report is one line on the process's standard error: an app that
// never installs one still hears of a failed copy or allocation. Checked in a child process (an
// exit test), since redirecting this process's stderr would swallow other tests' output.

@_spi(NanopbFacade) @testable import NanopbRuntime
import Testing

@Suite struct DiagnosticsDefaultOutputTests {
    @Test func withoutAHandlerAReportIsOneLineOnStandardError() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            NanopbDiagnostics.report("a planted operation", "its reason")
        }
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text == "NanopbRuntime: a planted operation failed: its reason\n")
    }
}
