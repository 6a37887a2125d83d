import Foundation
import Glibc
import ProofSupport
@testable import WireTransport

/// `openssl s_server` on 127.0.0.1 with the test PKI's server certificate, as a real peer nobody
/// here wrote. Bounded: `timeout` ends it after 30 s, and `-naccept 1` after its first client.
/// The test owns the process and must `stop()` it (which reaps it).
final class OpenSSLServer: @unchecked Sendable {
    let port: UInt16
    private let pid: pid_t
    let output: String

    init(_ pki: TestPKI, arguments: [String]) throws {
        port = try unusedPort()
        output = pki.dir + "/s_server-\(port).out"
        pid = try ChildProcess.launch("/usr/bin/timeout", ["30", "/usr/bin/openssl", "s_server", "-accept", "127.0.0.1:\(port)",
                                                          "-cert", pki.serverCert, "-key", pki.serverKey, "-naccept", "1", "-quiet"] + arguments,
                                      stdout: output, stderr: output + ".err")
    }

    func stop() { _ = ChildProcess.stop(pid) }
}

/// Runs `openssl s_client` against 127.0.0.1:`port` (stdin empty, so it closes after the
/// handshake), bounded by `timeout`; its stdout and stderr together.
func openSSLClient(port: UInt16, _ arguments: [String]) throws -> String {
    let result = try ChildProcess.run("/usr/bin/timeout", ["20", "/usr/bin/openssl", "s_client", "-connect", "127.0.0.1:\(port)"] + arguments)
    return String(decoding: result.stdout, as: UTF8.self) + result.stderrText
}

/// A client that waits out the server's start-up (refused connects are retried quickly).
func makePatientClient(_ parameters: Parameters, port: UInt16) -> (Connection, Recorder<ConnectionState>) {
    makeClient(parameters, port: port, retry: RetryPolicy(initialDelay: 0.05, maximumDelay: 0.1, maximumAttempts: 100))
}

/// The openssl command with `input` on stdin; its stdout (throws with its stderr when it fails).
func openssl(_ arguments: [String], input: [UInt8]? = nil) throws -> [UInt8] {
    let result = try ChildProcess.run("/usr/bin/openssl", arguments, input: input ?? [])
    guard result.status == 0 else { throw WireError.tls(reason: "openssl \(arguments): \(result.stderrText)") }
    return result.stdout
}

/// SHA-256 of a certificate's SubjectPublicKeyInfo, computed by the openssl command (not by the
/// code under test).
func spkiPin(_ certificate: String) throws -> [UInt8] {
    let publicKey = try openssl(["x509", "-in", certificate, "-pubkey", "-noout"])
    let spki = try openssl(["pkey", "-pubin", "-outform", "DER"], input: publicKey)
    return try openssl(["dgst", "-sha256", "-binary"], input: spki)
}
