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
/// Only text-exact messages (`DynamicMessage.isTextExact`) can be checked this way.
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

    /// nil when the oracle and protoc agree.
    func check(_ item: CheckCase) async throws(OracleCheckError) -> CheckFailure? {
        let message = item.message
        let name = message.fullName
        let bytes = message.serializedBytes(options: BinaryEncodingOptions(mapEntryOrder: .sortedByKey))
        let text = message.textFormat
        func failure(_ problem: String, protocBytes: [UInt8] = [], protocText: String = "") -> CheckFailure {
            CheckFailure(caseName: item.name, messageName: name, seed: item.seed, problem: problem, oracleBytes: bytes,
                         protocBytes: protocBytes, oracleText: text, protocText: protocText)
        }
        let typeArguments = ["--descriptor_set_in=\(descriptorSet)"]
        let encoded = try await protoc.run(typeArguments + ["--deterministic_output", "--encode=\(name)"], input: Array(text.utf8))
        guard encoded.status == 0 else {
            return failure("protoc --encode rejected the oracle's text: \(encoded.stderr)")
        }
        guard encoded.stdout == bytes else {
            return failure("encodings differ", protocBytes: encoded.stdout)
        }
        let decoded = try await protoc.run(typeArguments + ["--decode=\(name)"], input: bytes)
        let protocText = String(decoding: decoded.stdout, as: UTF8.self)
        guard decoded.status == 0 else {
            return failure("protoc --decode rejected the oracle's bytes: \(decoded.stderr)", protocBytes: encoded.stdout)
        }
        do {
            let reparsed = try TextFormatParser(schemas: schemas).parse(protocText, as: name)
            guard reparsed == message else {
                return failure("protoc --decode text reads back to a different message", protocBytes: encoded.stdout,
                               protocText: protocText)
            }
        } catch {
            return failure("protoc --decode text does not parse: \(error)", protocBytes: encoded.stdout, protocText: protocText)
        }
        do {
            let selfDecoded = try decodeOwnBytes(bytes, message.schema, schemas)
            guard selfDecoded == message else {
                return failure("the oracle decodes its own bytes to a different message", protocBytes: encoded.stdout,
                               protocText: protocText)
            }
        } catch {
            return failure("the oracle rejects its own bytes: \(error)", protocBytes: encoded.stdout, protocText: protocText)
        }
        return nil
    }

    /// Checks every case, `width` at a time; `progress(done, total)` after each one.
    /// Results are in the order of `cases`.
    func checkAll(
        _ cases: [CheckCase], width: Int, progress: @escaping @Sendable (Int, Int) -> Void
    ) async throws(OracleCheckError) -> [CheckFailure?] {
        var results = [CheckFailure?](repeating: nil, count: cases.count)
        do {
            try await withThrowingTaskGroup(of: (Int, CheckFailure?).self) { group in
                var next = 0
                var done = 0
                func launch() {
                    let index = next
                    next += 1
                    group.addTask { (index, try await self.check(cases[index])) }
                }
                while next < min(max(width, 1), cases.count) { launch() }
                while let (index, outcome) = try await group.next() {
                    results[index] = outcome
                    done += 1
                    progress(done, cases.count)
                    if next < cases.count { launch() }
                }
            }
        } catch let error as OracleCheckError {
            throw error
        } catch {
            throw .io("\(error)")
        }
        return results
    }
}
