import Foundation
import Glibc
import ProofSupport
import Testing

/// Two network namespaces a test makes for itself, joined by a veth pair, and a way to run the
/// test's body inside the first one.
///
///     client namespace                      peer namespace
///     lo, wpa 10.77.0.1/24  ── veth ──  wpb 10.77.0.2/24, lo, socat echo on TCP 7070
///
/// A network namespace belongs to a thread, not to a process, and a connection makes its sockets
/// on Dispatch's threads; so the body does not run in this process. The test (in the machine's
/// namespace) builds the namespaces, starts the echo peer, and runs this same test binary inside
/// the client namespace with a filter naming the one test and `WIREPROOF_PATH_NAMESPACE` set; that
/// copy sees the variable and runs the body. Its exit status and output decide the test here. The
/// namespaces and the peer are removed on every path out.
///
/// Needs root (`ip netns`): without it the test fails, saying so (it is not skipped).
enum NetworkNamespaces {
    static let environmentKey = "WIREPROOF_PATH_NAMESPACE"
    static let peerEnvironmentKey = "WIREPROOF_PATH_PEER_NAMESPACE"
    static let clientAddress = "10.77.0.1", peerAddress = "10.77.0.2", subnet = "10.77.0.0/24"
    static let clientInterface = "wpa", echoPort: UInt16 = 7070

    /// The two namespaces' names, as the body sees them (it runs in `client`).
    struct Pair { let client: String; let peer: String }

    /// The namespaces when this process is the copy running inside the client one.
    static var inside: Pair? {
        let environment = ProcessInfo.processInfo.environment
        guard let client = environment[environmentKey], let peer = environment[peerEnvironmentKey] else { return nil }
        return Pair(client: client, peer: peer)
    }

    /// Runs `body` inside the client namespace (see the type's comment). `test` is the test
    /// function's name (`#function`), which the copy is filtered to.
    static func run(_ test: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: (Pair) throws -> Void) throws {
        if let pair = inside {
            try body(pair)
            // This process ends right after the body. Let the teardown blocks the body's connections
            // and monitors queued run first: an object still tearing down at exit whose last weak
            // variable is gone has its weak-reference side table referenced only through its
            // refcount field, shifted, which LeakSanitizer cannot read, so LSan would report that
            // table as leaked. (Suppressing those reports would also hide every object reachable
            // from such a table: tried, it hid a real leaked cycle.) The blocks are immediate, so a
            // short pause drains them; it is not a timing assertion.
            usleep(300_000)
            return
        }
        guard geteuid() == 0 else {
            Issue.record("needs root to create network namespaces (ip netns); run the suite as root", sourceLocation: sourceLocation)
            return
        }
        removeNamespacesOfEndedRuns()
        let tag = "\(getpid())-\(UInt16.random(in: 0 ... 9999))"
        let client = "wpc\(tag)", peer = "wps\(tag)"
        var echo: pid_t?
        defer {
            if let echo { _ = ChildProcess.stop(echo) }
            _ = try? ip(["netns", "del", client])
            _ = try? ip(["netns", "del", peer])
        }
        try ip(["netns", "add", client])
        try ip(["netns", "add", peer])
        try ip(["-n", client, "link", "set", "lo", "up"])
        try ip(["-n", peer, "link", "set", "lo", "up"])
        try ip(["-n", client, "link", "add", clientInterface, "type", "veth", "peer", "name", "wpb", "netns", peer])
        try ip(["-n", client, "addr", "add", "\(clientAddress)/24", "dev", clientInterface])
        try ip(["-n", peer, "addr", "add", "\(peerAddress)/24", "dev", "wpb"])
        try ip(["-n", client, "link", "set", clientInterface, "up"])
        try ip(["-n", peer, "link", "set", "wpb", "up"])
        let logs = FileManager.default.temporaryDirectory.path
        echo = try ChildProcess.launch("/usr/sbin/ip", ["netns", "exec", peer, "socat", "TCP4-LISTEN:\(echoPort),fork,reuseaddr", "EXEC:cat"],
                                       stdout: "\(logs)/\(peer).out", stderr: "\(logs)/\(peer).err")
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let name = test.hasSuffix("()") ? String(test.dropLast(2)) : test
        let result = try ChildProcess.run("/usr/bin/timeout", [
            "120", "/usr/bin/env", "\(environmentKey)=\(client)", "\(peerEnvironmentKey)=\(peer)", "/usr/sbin/ip", "netns", "exec", client,
            binary, "--testing-library", "swift-testing", "--filter", "\(name)\\(",
        ])
        let output = String(decoding: result.stdout, as: UTF8.self) + result.stderrText
        for line in output.split(separator: "\n") where line.contains("timing:") { print(line) }  // measurements the body printed
        #expect(result.status == 0, "the body in namespace \(client) failed (exit \(result.status)):\n\(output.suffix(6000))", sourceLocation: sourceLocation)
        #expect(output.contains("Test \(name)() passed"), "the body did not run inside the namespace:\n\(output.suffix(3000))", sourceLocation: sourceLocation)
    }

    /// A run that trapped (a planted fault, a precondition) never reached its `defer`: its
    /// namespaces, named `wpc<pid>-<n>` / `wps<pid>-<n>`, outlive it. Removes those whose process
    /// is gone, after stopping what still runs in them (that run's echo peer).
    static func removeNamespacesOfEndedRuns() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []
        for name in names where name.hasPrefix("wpc") || name.hasPrefix("wps") {
            guard let pid = Int32(name.dropFirst(3).prefix { $0 != "-" }), name.contains("-"),
                  kill(pid, 0) == -1, errno == ESRCH else { continue }
            let pids = (try? ChildProcess.run("/usr/sbin/ip", ["netns", "pids", name]))
                .map { String(decoding: $0.stdout, as: UTF8.self).split(separator: "\n").compactMap { pid_t($0) } } ?? []
            for leftover in pids { kill(leftover, SIGTERM) }
            try? ip(["netns", "del", name])
        }
    }

    /// Runs `ip` with `arguments`; throws with its message when it fails.
    static func ip(_ arguments: [String]) throws {
        let result = try ChildProcess.run("/usr/sbin/ip", arguments)
        guard result.status == 0 else { throw NamespaceError(description: "ip \(arguments.joined(separator: " ")): \(result.stderrText)") }
    }

    struct NamespaceError: Error, CustomStringConvertible { let description: String }
}
