// netfuzz's command line (swift-argument-parser): the flags become `Options`, `run` drives the
// session in main.swift and exits with its status.

import ArgumentParser
import Foundation
import NetFuzzProtocol

struct NetFuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "netfuzz",
        abstract: "Send seeded mutants of a message type's exemplars to a live wirepeer over TCP, TLS and UDP.",
        discussion: "Exit status: 0 no finding, 1 findings (listed, with their folders), 2 usage or setup error. "
            + "With --replay: 1 when the saved inputs kill or hang a fresh peer again, 0 when they do not.")

    @Option(help: "The wirepeer executable.") var peer: String
    @Option(name: .customLong("cert"), help: "The peer's TLS certificate (PEM).") var certificate: String
    @Option(help: "The peer's TLS private key (PEM).") var key: String
    @Option(help: "The CA that signed the certificate (PEM).") var ca: String
    @Option(help: "Where findings are saved.") var out: String
    @Option(name: .customLong("type"), help: "The message type to fuzz.") var messageType = PeerProtocol.defaultMessageType
    @Option(help: "Seed of the mutants.") var seed: UInt64 = Options().seed
    @Option(help: "Mutants per transport.") var count: Int = Options().count
    @Option(help: "Time budget of the whole run, in seconds.") var seconds: Double = Options().seconds
    @Option(help: "Seconds without an answer (and without an answer to a probe) that make a hang.") var deadline: Double = Options().deadline
    @Option(help: "Inputs kept as reproducers per finding (at least 1).") var keep: Int = Options().keep
    @Option(help: "Comma-separated transports: tcp, tls, udp.") var transports = Transport.allCases.map(\.rawValue).joined(separator: ",")
    @Option(help: "Replay a saved finding folder against a fresh peer instead of fuzzing.") var replay: String?

    func validate() throws {
        for name in transports.split(separator: ",") where Transport(rawValue: String(name)) == nil {
            throw ValidationError("unknown transport '\(name)' in --transports (tcp, tls, udp)")
        }
    }

    var options: Options {
        var o = Options()
        o.peer = peer; o.certificate = certificate; o.key = key; o.ca = ca; o.out = out
        o.messageType = messageType; o.seed = seed; o.count = count; o.seconds = seconds
        o.deadline = deadline; o.keep = max(1, keep); o.replay = replay
        o.transports = transports.split(separator: ",").compactMap { Transport(rawValue: String($0)) }
        return o
    }

    func run() throws {
        do {
            throw ExitCode(try fuzzSession(options))
        } catch let error as NetFuzzError {
            FileHandle.standardError.write(Data("netfuzz: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
