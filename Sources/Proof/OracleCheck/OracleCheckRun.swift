import Foundation
import ProtoOracle
import ProtoSchema

/// What to cross-check: a directory of `.proto` files, its exemplars, and optionally random messages.
public struct OracleCheckConfiguration: Sendable {
    /// Directory passed to protoc as `-I`; its `.proto` files (recursively) are compiled.
    public var protoDirectory: String
    /// Files to compile, relative to `protoDirectory`; nil for every `.proto` file under it.
    public var protoFiles: [String]?
    /// Further `-I` paths (imports such as `google/protobuf/timestamp.proto`).
    public var includePaths: [String] = ["/usr/include"]
    /// Random messages to check in addition to the exemplars (0 for none).
    public var randomCount: Int = 0
    /// Seed of the random messages.
    public var seed: UInt64 = 1
    /// protoc runs in flight at once.
    public var concurrency: Int = 4
    /// protoc executable; nil to search PATH.
    public var protocPath: String?
    /// Also keep the compiled descriptor set (`--include_imports`) there, so a caller that needs
    /// the same schema (`wireproof prove`'s generation step) does not run protoc on it again.
    public var descriptorSetOut: String?

    public init(protoDirectory: String, protoFiles: [String]? = nil, randomCount: Int = 0, seed: UInt64 = 1) {
        self.protoDirectory = protoDirectory; self.protoFiles = protoFiles
        self.randomCount = randomCount; self.seed = seed
    }
}

/// The outcome of a run: counts per `.proto` file, and every disagreement.
public struct OracleCheckReport: Sendable {
    public struct Row: Sendable {
        public let file: String
        /// Exemplars checked (text-exact ones).
        public var exemplars = 0
        /// Exemplars left out because text cannot carry them (NaN payloads).
        public var excluded = 0
        /// Random messages checked.
        public var random = 0
        public var agreed = 0
        public var disagreed = 0
    }

    /// One row per compiled file, in file order.
    public let rows: [Row]
    public let failures: [CheckFailure]
    public let seed: UInt64
    public let seconds: Double

    public var total: Row {
        var sum = Row(file: "total")
        for row in rows {
            sum.exemplars += row.exemplars; sum.excluded += row.excluded; sum.random += row.random
            sum.agreed += row.agreed; sum.disagreed += row.disagreed
        }
        return sum
    }

    /// The summary table, one line per file and a total line.
    public var table: String {
        let width = max(40, (rows.map(\.file.count).max() ?? 0) + 2)
        func line(_ cells: [String]) -> String {
            cells[0].padding(toLength: width, withPad: " ", startingAt: 0)
                + cells.dropFirst().map { String(repeating: " ", count: max(0, 10 - $0.count)) + $0 }.joined()
        }
        func line(_ row: Row) -> String {
            line([row.file, "\(row.exemplars)", "\(row.excluded)", "\(row.random)", "\(row.agreed)", "\(row.disagreed)"])
        }
        var out = [line(["file", "exemplars", "excluded", "random", "agreed", "disagreed"])]
        out += rows.map(line)
        out.append(line(total))
        return out.joined(separator: "\n")
    }
}

/// The oracle-versus-protoc cross-check, shared by the `wireproof oracle-check` command and the
/// test suite (there is exactly one implementation).
public enum OracleCheck {
    /// A compiled schema: the descriptor set protoc wrote and the files it was built from.
    public struct CompiledSchema: Sendable {
        public let schemas: SchemaSet
        /// Path of the descriptor set file (inside the scratch directory).
        public let descriptorSetPath: String
        /// The compiled files, relative to the proto directory.
        public let files: [String]
    }

    /// Runs protoc on the `.proto` files of `configuration.protoDirectory` into `scratch`.
    public static func compile(
        _ configuration: OracleCheckConfiguration, scratch: URL
    ) async throws(OracleCheckError) -> CompiledSchema {
        let protoc = try Protoc(path: configuration.protocPath, scratch: scratch)
        let files: [String]
        if let given = configuration.protoFiles { files = given } else { files = try protoFiles(under: configuration.protoDirectory) }
        guard !files.isEmpty else { throw .noProtoFiles(configuration.protoDirectory) }
        let output = scratch.appendingPathComponent("schema.pb").path
        let includes = ([configuration.protoDirectory] + configuration.includePaths).map { "-I\($0)" }
        let result = try await protoc.run(includes + ["--include_imports", "--descriptor_set_out=\(output)"] + files)
        guard result.status == 0 else { throw .descriptorSetFailed(result.stderr) }
        do {
            return CompiledSchema(schemas: try SchemaSet(contentsOf: output), descriptorSetPath: output, files: files)
        } catch {
            throw .schemaUnreadable("\(error)")
        }
    }

    /// Every `.proto` file under `directory`, relative to it, sorted.
    public static func protoFiles(under directory: String) throws(OracleCheckError) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            throw .io("cannot list \(directory)")
        }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path.hasSuffix(".proto") { files.append(path) }
        }
        return files.sorted()
    }

    /// Message names ordered round-robin over their files (the first message of every file, then
    /// the second, ...), so that any number of random messages reaches every file before any file
    /// gets a second one, and every message type before any gets a second.
    public static func spreadOverFiles(_ messages: [MessageSchema]) -> [String] {
        var byFile: [String: [String]] = [:]
        var files: [String] = []
        for message in messages {
            if byFile[message.file] == nil { files.append(message.file) }
            byFile[message.file, default: []].append(message.fullName)
        }
        var order: [String] = []
        var round = 0
        while order.count < messages.count {
            for file in files where round < byFile[file]!.count { order.append(byFile[file]![round]) }
            round += 1
        }
        return order
    }

    /// Compiles the schema, then checks every exemplar of every message declared in the compiled
    /// files (text-exact ones; the rest are counted as excluded) and `randomCount` random messages
    /// cycling through those messages. `progress(done, total)` is called after each case.
    public static func run(
        _ configuration: OracleCheckConfiguration,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws(OracleCheckError) -> OracleCheckReport {
        let started = Date()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-oracle-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw .io("cannot create \(scratch.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }

        let compiled = try await compile(configuration, scratch: scratch)
        if let out = configuration.descriptorSetOut {
            do {
                try? FileManager.default.removeItem(atPath: out)
                try FileManager.default.copyItem(atPath: compiled.descriptorSetPath, toPath: out)
            } catch {
                throw .io("cannot keep the descriptor set at \(out): \(error)")
            }
        }
        let files = Set(compiled.files)
        let messages = compiled.schemas.messages.filter { !$0.isMapEntry && files.contains($0.file) }

        var rows: [String: OracleCheckReport.Row] = [:]
        for file in compiled.files { rows[file] = OracleCheckReport.Row(file: file) }
        var cases: [CheckCase] = []
        let exemplars = Exemplars(schemas: compiled.schemas)
        for message in messages {
            for exemplar in exemplars.all(for: message) {
                if exemplar.isTextExact {
                    cases.append(CheckCase(name: exemplar.name, message: exemplar.message))
                    rows[message.file]?.exemplars += 1
                } else {
                    rows[message.file]?.excluded += 1
                }
            }
        }
        var random = RandomMessages(schemas: compiled.schemas, seed: configuration.seed, messages: spreadOverFiles(messages))
        for index in 0..<configuration.randomCount {
            guard let message = random.next() else { break }
            cases.append(CheckCase(name: "random#\(index)", message: message, seed: configuration.seed))
            rows[message.schema.file]?.random += 1
        }

        let protoc = try Protoc(path: configuration.protocPath, scratch: scratch)
        var checker = CrossChecker(protoc: protoc, descriptorSet: compiled.descriptorSetPath, schemas: compiled.schemas)
        checker.batches = try ProtocBatches.write(for: cases, descriptorSet: compiled.descriptorSetPath,
                                                  to: scratch.appendingPathComponent("batches.pb").path)
        let outcomes = try await checker.checkAll(cases, width: configuration.concurrency, progress: progress)
        var failures: [CheckFailure] = []
        for (item, outcome) in zip(cases, outcomes) {
            let file = item.message.schema.file
            if let outcome {
                failures.append(outcome)
                rows[file]?.disagreed += 1
            } else {
                rows[file]?.agreed += 1
            }
        }
        return OracleCheckReport(
            rows: compiled.files.compactMap { rows[$0] }, failures: failures, seed: configuration.seed,
            seconds: Date().timeIntervalSince(started))
    }
}
