// netfuzz: seeded mutants of a message type's exemplars, sent to a live `wirepeer` over TCP, TLS
// and UDP (`make netfuzz`, docs/transport.md). A peer that dies (its process ends, connects are
// refused) or hangs (no answer and no answer to a probe within the deadline) is a finding: the
// inputs sent on that transport since the last good answer window (at most `--keep`) are saved as
// reproducers next to the peer's stderr (the sanitizer report), the peer is restarted and the run
// goes on. A dropped stream connection while the peer still answers probes is a finding too; a
// lost UDP answer is counted, not a finding. Every loop is bounded by a count and by time.
//
//   netfuzz --peer PATH --cert C --key K --ca CA --out DIR [--type rtm.DataPacket] [--seed N]
//           [--count N (per transport)] [--seconds S (whole run)] [--deadline S] [--keep N]
//           [--transports tcp,tls,udp]
//   netfuzz --peer PATH --cert C --key K --ca CA --out DIR --replay FINDING_DIR
// (`netfuzz --help` for every option; NetFuzzCommand.swift parses them.)
//
// Exit status: 0 no finding, 1 findings (listed, with their folders), 2 usage or setup error.
// Replay: 1 when the saved inputs kill or hang a fresh peer again, 0 when they do not.

import BundledProtoCatalog
import CommandLineSupport
import FacadeProof
import Foundation
import Glibc
import NetFuzzProtocol
import ProtoOracle
import WireTransport

struct Options {
    var peer = ""
    var messageType = PeerProtocol.defaultMessageType
    var certificate = "", key = "", ca = ""
    var out = ""
    var seed: UInt64 = 0x5EED_0F_F1AE
    var count = 50000
    var seconds = 120.0
    var deadline = 3.0
    var keep = 16
    var transports = Transport.allCases
    var replay: String?
}

/// One input sent, remembered until the run moves past it.
struct SentInput {
    let index: Int
    let bytes: [UInt8]
}

/// Why the peer stopped answering.
enum FindingKind: String {
    case crash      // the process ended
    case hang       // alive, but neither the request nor a probe got an answer
    case dropped    // a stream connection ended without an answer while the peer still answers probes
    case shutdown   // the process ended with a non-zero status when asked to stop (e.g. a leak report)
}

final class Driver {
    let options: Options
    let peer: PeerProcess
    let tls: TLSOptions
    let seeds: [[UInt8]]
    var findings: [String] = []

    init(_ options: Options, seeds: [[UInt8]]) {
        self.options = options
        self.seeds = seeds
        tls = TLSOptions(trustedCAFile: options.ca, serverName: "localhost")
        peer = PeerProcess(executable: options.peer,
                           arguments: ["--type", options.messageType, "--cert", options.certificate, "--key", options.key],
                           logDirectory: options.out)
    }

    func connect(_ transport: Transport) throws(NetFuzzError) -> Session {
        guard let port = peer.ports[transport.rawValue] else { throw .setup("the peer reported no \(transport) port") }
        return try Session(transport, port: port, tls: tls, deadline: options.deadline)
    }

    /// After a request went unanswered: did the peer die, hang, or only drop this connection?
    /// nil: it answers a probe (an unmutated exemplar on a fresh connection of the same transport).
    func diagnose(_ transport: Transport) -> (FindingKind, String)? {
        usleep(200_000)  // a crashing peer needs a moment to print its report and exit
        if let status = peer.exitStatusIfDead() { return (.crash, "peer exited with status \(status)") }
        let probe: Outcome
        do { probe = try connect(transport).exchange(seeds[0], deadline: options.deadline) }
        catch {
            if let status = peer.exitStatusIfDead() { return (.crash, "peer exited with status \(status)") }
            return (.hang, "probe connect failed: \(error)")
        }
        if case .answered = probe { return nil }
        if let status = peer.exitStatusIfDead() { return (.crash, "peer exited with status \(status)") }
        return (.hang, "probe got no answer: \(probe)")
    }

    /// Saves `inputs` (oldest first; the last is the one left unanswered) and the peer's stderr.
    func save(_ kind: FindingKind, _ transport: Transport, _ inputs: [SentInput], detail: String) -> String {
        let directory = "\(options.out)/finding-\(findings.count + 1)-\(transport)-\(kind)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var info = "kind: \(kind)\ntransport: \(transport)\ntype: \(options.messageType)\nseed: \(options.seed)\ndetail: \(detail)\n"
        info += "inputs (oldest first; the last one went unanswered):\n"
        for (n, input) in inputs.enumerated() {
            let name = String(format: "input-%03d.bin", n)
            _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data(input.bytes))
            info += "  \(name): mutant \(input.index), \(input.bytes.count) bytes: \(input.bytes.map { String(format: "%02x", $0) }.joined())\n"
        }
        _ = FileManager.default.createFile(atPath: "\(directory)/finding.txt", contents: Data(info.utf8))
        try? FileManager.default.copyItem(atPath: peer.stderrPath, toPath: "\(directory)/peer.stderr")
        findings.append("\(kind) over \(transport): \(detail) — \(directory)")
        print("netfuzz: FINDING \(kind) over \(transport) after \(inputs.count) inputs (\(detail)); saved in \(directory)")
        let summary = peer.stderrSummary()
        if !summary.isEmpty { print("netfuzz: peer stderr:\n\(summary)") }
        return directory
    }

    struct Tally {
        var sent = 0, lost = 0
        var statuses: [PeerProtocol.Status: Int] = [:]
    }

    /// Sends up to `count` mutants over `transport` within `seconds`.
    func fuzz(_ transport: Transport, count: Int, seconds: Double) throws(NetFuzzError) -> Tally {
        var random = SplitMix64(seed: options.seed ^ DecodeMutationCheck.stableHash(transport.rawValue))
        var tally = Tally()
        var recent: [SentInput] = []
        var session = try connect(transport)
        let end = Date().addingTimeInterval(seconds)
        for index in 0 ..< count where Date() < end {
            var input = seeds[random.below(seeds.count)]
            for _ in 0 ... random.below(4) { input = DecodeMutationCheck.mutate(input, &random) }
            // One datagram holds at most 65,507 bytes (the largest exemplars are longer).
            if transport == .udp && input.count > PeerProtocol.maximumDatagram { input.removeLast(input.count - PeerProtocol.maximumDatagram) }
            recent.append(SentInput(index: index, bytes: input))
            if recent.count > options.keep { recent.removeFirst() }
            tally.sent += 1
            let outcome = session.exchange(input, deadline: options.deadline)
            if case .answered(let status, _) = outcome {
                tally.statuses[status, default: 0] += 1
                continue
            }
            session.close()
            if let (kind, detail) = diagnose(transport) {
                _ = save(kind, transport, recent, detail: "\(detail) after the request: \(outcome)")
                peer.stop(signal: SIGKILL)
                try peer.start(timeout: 60)
            } else if transport == .udp {
                tally.lost += 1  // UDP may drop a datagram; the peer answered the probe
            } else {
                _ = save(.dropped, transport, recent, detail: "\(outcome)")
            }
            recent.removeAll()
            session = try connect(transport)
        }
        session.close()
        return tally
    }

    /// Sends a finding's saved inputs, in order, to a fresh peer over the finding's transport.
    func replay(_ directory: String) throws(NetFuzzError) -> Bool {
        guard let info = try? String(contentsOfFile: "\(directory)/finding.txt", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("transport: ") }),
              let transport = Transport(rawValue: String(line.dropFirst("transport: ".count))) else {
            throw .setup("\(directory)/finding.txt names no transport")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix("input-") }.sorted()
        try peer.start(timeout: 60)
        var session = try connect(transport)
        for name in names {
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(name)") else { continue }
            let outcome = session.exchange([UInt8](data), deadline: options.deadline)
            print("netfuzz: replay \(name) (\(data.count) bytes): \(outcome)")
            if case .answered = outcome { continue }
            session.close()
            if let (kind, detail) = diagnose(transport) {
                print("netfuzz: reproduced: \(kind) (\(detail))\n\(peer.stderrSummary())")
                peer.stop(signal: SIGKILL)
                return true
            }
            session = try connect(transport)
        }
        session.close()
        peer.stop()
        print("netfuzz: not reproduced: the peer answered every saved input")
        return false
    }
}

func fuzzSession(_ options: Options) throws(NetFuzzError) -> Int32 {
    try? FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
    guard facadeCatalog.messageType(named: options.messageType) != nil else {
        throw .setup("no message type \(options.messageType) in the catalog")
    }
    // Seeds: the type's exemplars, built through the facades (the empty message when it has none).
    var seeds = facadeCatalog.exemplars.filter { $0.messageType == options.messageType }.compactMap { try? $0.build() }
    if seeds.isEmpty { seeds = [[]] }
    let driver = Driver(options, seeds: seeds)
    if let replay = options.replay { return try driver.replay(replay) ? 1 : 0 }

    print("netfuzz: \(options.messageType), \(seeds.count) exemplars, seed \(options.seed), up to \(options.count) mutants per transport, \(options.seconds) s budget, \(options.deadline) s deadline")
    let started = Date()
    try driver.peer.start(timeout: 60)
    print("netfuzz: peer ready in \(String(format: "%.1f", Date().timeIntervalSince(started))) s, ports \(driver.peer.ports.sorted { $0.key < $1.key })")
    let perTransport = options.seconds / Double(options.transports.count)
    for transport in options.transports {
        let t0 = Date()
        let tally = try driver.fuzz(transport, count: options.count, seconds: perTransport)
        let elapsed = Date().timeIntervalSince(t0)
        let statuses = tally.statuses.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print(String(format: "netfuzz: %@: %d sent in %.1f s (%.0f/s): %@%@", transport.rawValue, tally.sent, elapsed,
                     Double(tally.sent) / max(elapsed, 0.001), statuses, tally.lost > 0 ? ", \(tally.lost) UDP answers lost" : ""))
    }
    // Stop the peer the polite way: a non-zero status now is a sanitizer's exit-time report (leaks).
    if let status = driver.peer.stop(), status != 0 {
        _ = driver.save(.shutdown, options.transports.last ?? .tcp, [], detail: "peer exited with status \(status) on SIGTERM")
    }
    print(String(format: "netfuzz: %d peer launches, %.1f s in all", driver.peer.launches, Date().timeIntervalSince(started)))
    if driver.findings.isEmpty {
        print("netfuzz: no finding")
        return 0
    }
    print("netfuzz: \(driver.findings.count) finding(s):")
    for f in driver.findings { print("  \(f)") }
    return 1
}

exit(await CommandExit.run(NetFuzzCommand.self, Array(CommandLine.arguments.dropFirst())))
