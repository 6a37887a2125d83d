import Foundation
import ProtoOracle
import ProtoSchema

/// One message to cross-check against protoc.
public struct CheckCase: Sendable {
    /// Exemplar name, or `random#<index>` for random messages.
    public let name: String
    public let message: DynamicMessage
    /// The generator seed for random messages (to replay them); nil for exemplars.
    public let seed: UInt64?

    public init(name: String, message: DynamicMessage, seed: UInt64? = nil) {
        self.name = name; self.message = message; self.seed = seed
    }
}

/// A disagreement between the oracle and protoc, with everything needed to replay it.
public struct CheckFailure: Sendable, CustomStringConvertible {
    public let caseName: String
    public let messageName: String
    public let seed: UInt64?
    /// What disagreed, in one line.
    public let problem: String
    /// The oracle's encoding.
    public let oracleBytes: [UInt8]
    /// protoc's encoding of the oracle's text (empty when protoc failed).
    public let protocBytes: [UInt8]
    /// The oracle's text, and protoc's `--decode` text of the oracle's bytes.
    public let oracleText: String
    public let protocText: String

    public var description: String {
        var lines = ["DISAGREE \(caseName) (\(messageName))" + (seed.map { " seed \($0)" } ?? "") + ": \(problem)"]
        lines.append("  oracle bytes: \(hex(oracleBytes))")
        lines.append("  protoc bytes: \(hex(protocBytes))")
        lines.append("  oracle text:\n" + indent(oracleText))
        lines.append("  protoc --decode text:\n" + indent(protocText))
        return lines.joined(separator: "\n")
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }
}

/// Hex dump of bytes (two lower-case digits per byte, no separators).
func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var out = ""
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
    return out
}

/// The comparison itself, for one message, in both directions:
/// 1. encode: the oracle's bytes (map entries in key order) equal
///    `protoc --deterministic_output --encode=<Msg>` of the oracle's text;
/// 2. decode: `protoc --decode=<Msg>` of the oracle's bytes, read back by the oracle's text
///    parser, equals the message;
/// 3. self: the oracle's decoder reads its own bytes back to the message.
/// Only text-exact messages (`DynamicMessage.isTextExact`) can be checked this way. A case is
/// judged alone (`check(_:)`) unless a batch of its type agreed for it (ProtocBatch.swift): a batch
/// only ever confirms agreement, and every case it does not confirm is checked and explained alone.
struct CrossChecker: Sendable {
    let protoc: Protoc
    /// Path of the descriptor set protoc reads types from.
    let descriptorSet: String
    let schemas: SchemaSet
    /// How check 3 reads the oracle's bytes back: the oracle's own decoder. A test substitutes a
    /// faulty one to show that check can fail, since a correct oracle never trips it.
    var decodeOwnBytes: @Sendable ([UInt8], MessageSchema, SchemaSet) throws -> DynamicMessage = {
        try DynamicMessage(serializedBytes: $0, schema: $1, in: $2)
    }
    /// The wrappers that let one protoc run check many cases of a type; nil checks each alone.
    var batches: ProtocBatches?

    /// nil when the oracle and protoc agree.
    func check(_ item: CheckCase) async throws(OracleCheckError) -> CheckFailure? {
        let expected = Expected(item)
        let typeArguments = ["--descriptor_set_in=\(descriptorSet)"]
        let encoded = try await protoc.run(typeArguments + ["--deterministic_output", "--encode=\(expected.name)"],
                                           input: Array(expected.text.utf8))
        guard encoded.status == 0 else {
            return expected.failure("protoc --encode rejected the oracle's text: \(encoded.stderr)")
        }
        guard encoded.stdout == expected.bytes else {
            return expected.failure("encodings differ", protocBytes: encoded.stdout)
        }
        let decoded = try await protoc.run(typeArguments + ["--decode=\(expected.name)"], input: expected.bytes)
        let protocText = String(decoding: decoded.stdout, as: UTF8.self)
        guard decoded.status == 0 else {
            return expected.failure("protoc --decode rejected the oracle's bytes: \(decoded.stderr)", protocBytes: encoded.stdout)
        }
        do {
            let reparsed = try TextFormatParser(schemas: schemas).parse(protocText, as: expected.name)
            guard reparsed == item.message else {
                return expected.failure("protoc --decode text reads back to a different message", protocBytes: encoded.stdout,
                                        protocText: protocText)
            }
        } catch {
            return expected.failure("protoc --decode text does not parse: \(error)", protocBytes: encoded.stdout, protocText: protocText)
        }
        return selfCheck(expected, protocText: protocText)
    }

    /// Check 3, once protoc agreed with `expected` both ways and printed `protocText`.
    func selfCheck(_ expected: Expected, protocText: String) -> CheckFailure? {
        do {
            let selfDecoded = try decodeOwnBytes(expected.bytes, expected.item.message.schema, schemas)
            guard selfDecoded == expected.item.message else {
                return expected.failure("the oracle decodes its own bytes to a different message", protocBytes: expected.bytes,
                                        protocText: protocText)
            }
        } catch {
            return expected.failure("the oracle rejects its own bytes: \(error)", protocBytes: expected.bytes, protocText: protocText)
        }
        return nil
    }

    /// What the oracle says of one case: its bytes (map entries in key order) and its text.
    struct Expected {
        let item: CheckCase
        let bytes: [UInt8]
        let text: String
        var name: String { item.message.fullName }

        init(_ item: CheckCase) {
            self.item = item
            bytes = item.message.serializedBytes(options: BinaryEncodingOptions(mapEntryOrder: .sortedByKey))
            text = item.message.textFormat
        }

        func failure(_ problem: String, protocBytes: [UInt8] = [], protocText: String = "") -> CheckFailure {
            CheckFailure(caseName: item.name, messageName: name, seed: item.seed, problem: problem, oracleBytes: bytes,
                         protocBytes: protocBytes, oracleText: text, protocText: protocText)
        }
    }

    /// Checks every case, `width` protoc runs at a time: with `batches`, the cases of one message
    /// type a batch at a time, otherwise one by one; `progress(done, total)` after each case.
    /// Results are in the order of `cases`.
    func checkAll(
        _ cases: [CheckCase], width: Int, progress: @escaping @Sendable (Int, Int) -> Void
    ) async throws(OracleCheckError) -> [CheckFailure?] {
        let groups = batches.map { ProtocBatches.groups(of: cases, size: $0.size) } ?? cases.indices.map { [$0] }
        var results = [CheckFailure?](repeating: nil, count: cases.count)
        do {
            try await withThrowingTaskGroup(of: ([Int], [CheckFailure?]).self) { group in
                var next = 0
                var done = 0
                func launch() {
                    let indices = groups[next]
                    next += 1
                    group.addTask { (indices, try await self.check(group: indices.map { cases[$0] })) }
                }
                while next < min(max(width, 1), groups.count) { launch() }
                while let (indices, outcomes) = try await group.next() {
                    for (index, outcome) in zip(indices, outcomes) {
                        results[index] = outcome
                        done += 1
                        progress(done, cases.count)
                    }
                    if next < groups.count { launch() }
                }
            }
        } catch let error as OracleCheckError {
            throw error
        } catch {
            throw .io("\(error)")
        }
        return results
    }

    /// Cases of one message type: as a batch when there are several and a wrapper for their type,
    /// otherwise one by one.
    func check(group: [CheckCase]) async throws(OracleCheckError) -> [CheckFailure?] {
        if group.count > 1, let batches, let wrapper = batches.wrappers[group[0].message.fullName] {
            return try await check(batch: group, wrapper: wrapper, descriptorSet: batches.descriptorSet)
        }
        var outcomes: [CheckFailure?] = []
        for item in group { outcomes.append(try await check(item)) }
        return outcomes
    }
}
