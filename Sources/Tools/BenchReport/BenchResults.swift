// The figures of one `make bench` run, as each `wirebench report` subcommand leaves them in
// RESULTS.json for the next; `summary` reads them all. The file belongs to one run of the
// pipeline (under $BENCH_TMP/out) and only this module reads or writes it.

import Foundation

/// Everything one bench run measured so far; every part is optional because the subcommands fill
/// it in turn (and some legs are skipped by knobs).
public struct BenchResults: Codable, Equatable, Sendable {
    /// `lines`: the fixed-cost runtime's size.
    public var runtimeLines: RuntimeLineCount?
    /// `sizes`: messages in the bundled schema, and in the schema pruned to SizeOne's message.
    public var messagesAll: Int?
    public var messagesOnePruned: Int?
    /// `sizes`: per configuration ("default", "stripped"), each probe's size and attribution.
    public var sizes: [String: ConfigurationSizes]?
    /// `sizes`: per configuration, the figures derived from the probes.
    public var sizeFigures: [String: SizeFigures]?
    /// `peer-sizes`: per configuration, SizePacket against SwiftProtobuf.
    public var swiftProtobufSizes: [String: PeerSize]?
    /// `codec`: facade vs oracle timings per packet, in the order CodecBench printed them.
    public var codec: [PacketTimings]?
    /// `codec`: callgrind instructions per operation, per packet, per operation name.
    public var instructions: [String: [String: Double]]?
    /// `ratios`: facades against nanopb C, libprotobuf, SwiftProtobuf; fuzz rate; peak memory.
    public var ratios: CodecRatios?

    public init() {}

    /// The results in `path`, or empty results when the file does not exist yet.
    public static func load(_ path: String) throws -> BenchResults {
        guard FileManager.default.fileExists(atPath: path) else { return BenchResults() }
        return try JSONDecoder().decode(BenchResults.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes the results to `path` (sorted keys, so two runs diff cleanly).
    public func save(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}

/// Lines of the runtime's files, and those that are neither blank nor only a comment.
public struct RuntimeLineCount: Codable, Equatable, Sendable {
    public var lines: Int
    public var codeLines: Int
    public var files: Int
}

/// One stripped probe executable: `size`'s columns, the file, and where its bytes went.
public struct ExecutableSize: Codable, Equatable, Sendable {
    public var file: Int
    public var text: Int
    public var data: Int
    public var bss: Int
    /// text + data: what the report calls the executable's size.
    public var alloc: Int
    /// Bytes per attribution group (`SymbolGroup` raw values), "not in a symbol" included.
    public var groups: [String: Int]
    /// Bytes per section group (`SectionGroup` raw values) of the stripped binary.
    public var sections: [String: Int]

    func group(_ g: SymbolGroup) -> Int { groups[g.rawValue] ?? 0 }
    func section(_ g: SectionGroup) -> Int { sections[g.rawValue] ?? 0 }
}

/// The probes of one build configuration.
public struct ConfigurationSizes: Codable, Equatable, Sendable {
    /// Per probe name (`SizeReport.probes`).
    public var executables: [String: ExecutableSize]
    /// Bytes of the symbols SizeOne has and SizeOnePruned lacks, per `SymbolKind` raw value.
    public var unusedKinds: [String: Int]
}

/// What the probes of one configuration say per message and per program.
public struct SizeFigures: Codable, Equatable, Sendable {
    public var usedPerMessageAlloc: Double
    public var usedPerMessageFacade: Double
    public var usedPerMessageProgram: Double
    public var unusedPerMessageAlloc: Double
    public var unusedPerMessageFacade: Double
    public var onePrunedFacade: Int
    public var packetAlloc: Int
    public var packetFile: Int
    public var packetPrunedAlloc: Int
    public var packetPrunedFile: Int
}

/// SizePacket built against SwiftProtobuf, against the same baseline.
public struct PeerSize: Codable, Equatable, Sendable {
    public var alloc: Int
    public var added: Int
    public var fileAdded: Int
    /// Facades (all types) ÷ SwiftProtobuf, added bytes.
    public var ratioAll: Double
    /// Facades pruned to use ÷ SwiftProtobuf, added bytes.
    public var ratioPruned: Double
}

/// CodecBench's `RESULT` lines of one packet.
public struct PacketTimings: Codable, Equatable, Sendable {
    public var packet: String
    /// Encoded size, from CodecBench's "packet NAME: N bytes" line.
    public var bytes: Int?
    /// Per operation ("facade_encode", "ratio_decode", ...), its named values ("median_ns", "p25", ...).
    public var operations: [String: [String: Double]]
}

/// The facades against the other codecs on the same bytes (`make bench`'s ratio step, RatioStep).
public struct CodecRatios: Codable, Equatable, Sendable {
    public var packets: [PacketInstructions]
    /// Fuzz target `decode` ÷ `decode_c` throughput on fixed inputs; nil when not measured.
    public var fuzzFixed: Double?
    /// scripts/peak-memory.sh's table, line by line; nil when not measured.
    public var peakMemory: [String]?
}

/// Instructions per operation of each program on one packet.
public struct PacketInstructions: Codable, Equatable, Sendable {
    public var packet: String
    public var bytes: Int
    /// Per kind ("decode", "encode"), per program (`CodecProgram` raw value), instructions per operation.
    public var operations: [String: [String: Double]]
    /// Per kind, per program (facades and plain C, the runs collected inside their loops), where
    /// an operation goes; nil in results written before the split was measured.
    public var splits: [String: [String: OperationSplit]]? = nil

    func count(_ kind: String, _ program: CodecProgram) -> Double? { operations[kind]?[program.rawValue] }
    func split(_ kind: String, _ program: CodecProgram) -> OperationSplit? { splits?[kind]?[program.rawValue] }
}
