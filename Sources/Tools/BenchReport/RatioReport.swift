// `wirebench report ratios`: instructions per operation of the facades, plain nanopb C,
// libprotobuf full and lite and SwiftProtobuf on the same bytes (the callgrind
// listings of `make bench`'s ratio step, RatioStep), the fuzz targets' fixed-input rate and the peak-memory table.

import Foundation

/// The programs the ratio step runs under callgrind, in the table's order.
public enum CodecProgram: String, CaseIterable, Sendable {
    case facade, c, full, lite, swiftprotobuf

    /// The program's row name in the instruction table.
    var title: String {
        switch self {
        case .facade: return "facades"
        case .c: return "plain nanopb C (same runtime, generated C, flags)"
        case .full: return "libprotobuf full (C++, -O2)"
        case .lite: return "libprotobuf lite (C++, -O2)"
        case .swiftprotobuf: return "SwiftProtobuf 1.38.1 (release)"
        }
    }

    /// The program's name after "facades /".
    var shortName: String {
        switch self {
        case .facade: return "facades"
        case .c: return "nanopb C"
        case .full: return "libprotobuf full"
        case .lite: return "libprotobuf lite"
        case .swiftprotobuf: return "SwiftProtobuf"
        }
    }

    /// The regular expression of the program's `kind` ("decode", "encode") loop function.
    func loopPattern(_ kind: String) -> String {
        let capitalised = kind.prefix(1).uppercased() + kind.dropFirst()
        switch self {
        case .facade: return #"\$s10CodecBench\d+loopFacade"# + capitalised + #"\w*y"#
        case .swiftprotobuf: return #"\$s\d+codec_speed_swiftprotobuf\d+loop"# + capitalised + #"\w*y"#
        default: return ":loop_" + kind + #"\b"#
        }
    }
}

public enum RatioReport {
    public static let packets = ["chat", "metrics"]
    public static let kinds = ["decode", "encode"]

    /// Reads `work` (the ratio step's folder: `iterations`, `<packet>.bin`, `<program>-<packet>.txt`,
    /// and `fuzz-rate.txt`, `peak-memory.txt` when measured).
    public static func read(work: String) throws -> CodecRatios {
        var iterations: [String: Int] = [:]
        for line in TextMatching.lines(try BenchShell.read(work + "/iterations")) {
            let f = TextMatching.fields(line)
            if f.count == 2, let n = Int(f[1]) { iterations[String(f[0])] = n }
        }
        var packetRows: [PacketInstructions] = []
        for packet in packets {
            var operations: [String: [String: Double]] = [:]
            var splits: [String: [String: OperationSplit]] = [:]
            for program in CodecProgram.allCases {
                let name = "\(program.rawValue)-\(packet)"
                // SwiftProtobuf's peer may not build here (the ratio step said why).
                if program == .swiftprotobuf && iterations[name] == nil { continue }
                guard let n = iterations[name] else { throw BenchReportError.missingFigure("no iteration count of \(name) in \(work)/iterations") }
                let listing = try BenchShell.read(work + "/\(name).txt")
                var loopsTotal = 0
                for kind in kinds {
                    guard let count = CallgrindListing.inclusive(listing, matching: program.loopPattern(kind)) else {
                        throw BenchReportError.missingFigure("no loop_\(kind) in \(work)/\(name).txt")
                    }
                    operations[kind, default: [:]][program.rawValue] = Double(count) / Double(n)
                    loopsTotal += count
                }
                guard program == .facade || program == .c,
                      OperationSplit.collectedInLoopsOnly(listing, loopsTotal: loopsTotal) else { continue }
                for kind in kinds {
                    if let loop = operations[kind]?[program.rawValue],
                       let split = OperationSplit.read(listing, kind: kind, loop: loop, iterations: n) {
                        splits[kind, default: [:]][program.rawValue] = split
                    }
                }
            }
            packetRows.append(PacketInstructions(packet: packet, bytes: try BinaryTools.fileSize(work + "/\(packet).bin"),
                                                 operations: operations, splits: splits.isEmpty ? nil : splits))
        }
        let fuzz = try? BenchShell.read(work + "/fuzz-rate.txt")
        let peak = try? BenchShell.read(work + "/peak-memory.txt")
        return CodecRatios(packets: packetRows, fuzzFixed: fuzz.flatMap(fuzzFixedRatio),
                           peakMemory: peak.map { TextMatching.lines($0.trimmingSuffix("\n")).map(String.init) })
    }

    /// The last "fixed inputs, facade / plain C throughput = X" figure of `wireproof fuzz rate`'s output.
    public static func fuzzFixedRatio(_ output: String) -> Double? {
        let regex = TextMatching.regex(#"fixed inputs, facade / plain C throughput = ([\d.]+)"#)
        var found: Double?
        for line in TextMatching.lines(output) {
            let text = String(line)
            if let m = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
               let r = Range(m.range(at: 1), in: text) {
                found = Double(text[r])
            }
        }
        return found
    }

    /// Programs measured on every packet, in table order.
    static func programs(_ ratios: CodecRatios) -> [CodecProgram] {
        CodecProgram.allCases.filter { p in ratios.packets.allSatisfy { $0.count("decode", p) != nil } }
    }

    /// The instruction table as Markdown lines: each program's count per operation, then the
    /// facades ÷ each other program (bold; lower is better). Goals live in the summary table.
    public static func tableLines(_ ratios: CodecRatios) -> [String] {
        let p = ratios.packets
        let head = p.map { "\($0.packet) packet, \(NumberFormat.grouped($0.bytes)) B" }.joined(separator: " | ")
        var lines = ["| instructions per operation (callgrind) | \(head) |",
                     "|---|" + String(repeating: "--:|", count: p.count)]
        let progs = programs(ratios)
        for kind in kinds {
            for prog in progs {
                let cells = p.map { NumberFormat.grouped($0.count(kind, prog) ?? 0, decimals: 0) }.joined(separator: " | ")
                lines.append("| \(kind): \(prog.title) | \(cells) |")
            }
            for prog in progs where prog != .facade {
                let cells = p.map { "**\(NumberFormat.fixed(($0.count(kind, .facade) ?? 0) / ($0.count(kind, prog) ?? 1), 2))**" }
                lines.append("| \(kind): facades / \(prog.shortName) | \(cells.joined(separator: " | ")) |")
            }
        }
        return lines
    }
}

extension String {
    /// The string without trailing copies of `suffix` (Python's `rstrip` of one character).
    func trimmingSuffix(_ suffix: Character) -> String {
        var s = Substring(self)
        while s.last == suffix { s = s.dropLast() }
        return String(s)
    }
}
