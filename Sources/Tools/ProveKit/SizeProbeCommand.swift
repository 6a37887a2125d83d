// `wireproof size-probe`: the bench's size probes (`make bench`, `wirebench run`). Writes a Swift `main.swift`
// that uses every accessor of some facade messages, from the generation plan (`--plan-out`), so no
// generated text is read. For each chosen message type the program gets one `touch_T` function that
// decodes T from the input, reads every getter, rebuilds T through every setter and `clearX()`,
// hashes and describes the result: "an SDK that uses the message" in full, so the size difference
// between a program touching one message and one touching all of them, both dead-stripped, is the
// facade code a used message costs.

import ArgumentParser
import Foundation
import ProtoGenKit

/// `wireproof size-probe`: prints the number of message types the probe touches.
public struct SizeProbeCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "size-probe", abstract: "Write a program that uses every accessor of some facade messages (make bench).")

    @Option(help: "The generation plan (protogen generate --plan-out).") var plan: String
    @Option(help: "The facade module the program imports.") var module: String
    @Option(help: "The main.swift to write.") var out: String
    @Flag(help: "Touch every message of the plan.") var all = false
    @Option(name: .customLong("type"), help: "A message's Swift name to touch (repeatable).") var types: [String] = []

    public init() {}

    public func validate() throws {
        if all == !types.isEmpty { throw ValidationError("give --all or at least one --type, not both") }
    }

    public func run() throws {
        try run(say: { print($0) })
    }

    /// Writes the program for the chosen messages (every message of the plan with --all, else the
    /// --type ones in the order given) and says how many it touches.
    func run(say: (String) -> Void) throws {
        let document = try PlanDocument.load(plan)
        let messages = document.messages
        guard !messages.isEmpty else { throw ValidationError("the plan \(plan) names no message") }
        let chosen = try all ? messages : types.map { name in
            guard let found = messages.first(where: { $0.swift == name }) else {
                throw ValidationError("\(name) is not a message of the plan \(plan)")
            }
            return found
        }
        let text = Self.program(touching: chosen, module: module)
        try FileManager.default.createDirectory(atPath: (out as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: out))
        say("\(chosen.count)")
    }

    /// The probe program's text.
    static func program(touching messages: [PlanDocument.TypeEntry], module: String) -> String {
        var lines = [
            "// Written by `wireproof size-probe` for make bench; do not edit or commit.",
            "// Uses every accessor of \(messages.count) message type(s).",
            "import \(module)",
            "",
        ]
        for message in messages {
            let t = message.swift
            lines += ["@inline(never)", "func touch_\(t)(_ bytes: [UInt8], _ flag: Bool) -> Int {",
                      "    let m = (try? \(t)(serializedBytes: bytes)) ?? \(t)()", "    var h = Hasher()"]
            lines += (message.getters ?? []).map { "    h.combine(m.\($0))" }
            lines.append("    let b = \(t).with { b in")
            lines += (message.setters ?? []).map { "        b.\($0) = m.\($0)" }
            lines += (message.mutators ?? []).filter { $0.hasPrefix("clear") }.map { "        if flag { b.\($0)() }" }
            lines += ["    }", "    h.combine(b)", "    h.combine(b.description)", "    h.combine(b.owned().isOwning)",
                      "    return h.finalize()", "}", ""]
        }
        lines += ["let input = Array((CommandLine.arguments.dropFirst().first ?? \"\").utf8)",
                  "let flag = CommandLine.arguments.count > 2", "var total = 0"]
        lines += messages.map { "total &+= touch_\($0.swift)(input, flag)" }
        lines += ["print(total)", ""]
        return lines.joined(separator: "\n")
    }
}
