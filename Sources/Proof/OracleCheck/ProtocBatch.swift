// Many cases of one message type through one protoc run each way. protoc reads one message per
// run and most of a run is protoc starting and loading the schema, so cases travel as the items
// of a wrapper message (`repeated <type> item = 1`) declared in a descriptor set written for the
// check. A batch only confirms agreement: an item it does not confirm is checked alone.

import Foundation
import ProtoOracle
import ProtoSchema

/// The wrapper descriptor set of one check and how many cases one protoc run takes.
struct ProtocBatches: Sendable {
    /// Path of the compiled descriptor set with the wrapper file appended.
    let descriptorSet: String
    /// A checked message type's full name → its wrapper's full name.
    let wrappers: [String: String]
    /// Cases per protoc run at most.
    let size: Int

    /// The wrappers' package: a schema that declares it too makes the wrapper set unloadable,
    /// and then every case is checked alone.
    static let package = "wireproof_oracle_batch"

    /// Writes `descriptorSet` with a wrapper for every message type of `cases` to `path`.
    static func write(
        for cases: [CheckCase], descriptorSet: String, to path: String, size: Int = 64
    ) throws(OracleCheckError) -> ProtocBatches {
        var seen = Set<String>()
        let types = cases.map(\.message.schema).filter { seen.insert($0.fullName).inserted }.map { (fullName: $0.fullName, file: $0.file) }
        do {
            let base = try Data(contentsOf: URL(fileURLWithPath: descriptorSet))
            let written = DescriptorSetWriter.appendingWrappers(
                to: Array(base), file: "\(package).proto", package: package, types: types)
            try Data(written.descriptorSet).write(to: URL(fileURLWithPath: path))
            return ProtocBatches(descriptorSet: path, wrappers: written.wrappers, size: size)
        } catch {
            throw .io("cannot write the batch descriptor set \(path): \(error)")
        }
    }

    /// The indices of `cases` grouped by message type (types in order of first appearance), in
    /// groups of at most `size`.
    static func groups(of cases: [CheckCase], size: Int) -> [[Int]] {
        var order: [String] = []
        var byType: [String: [Int]] = [:]
        for (index, item) in cases.enumerated() {
            let name = item.message.fullName
            if byType[name] == nil { order.append(name) }
            byType[name, default: []].append(index)
        }
        let step = max(size, 1)
        return order.flatMap { name in
            let indices = byType[name]!
            return stride(from: 0, to: indices.count, by: step).map { Array(indices[$0..<min($0 + step, indices.count)]) }
        }
    }

    /// The wrapper's text holding `texts` as its items, in order.
    static func text(_ texts: [String]) -> String {
        texts.map { "item {\n\($0)\n}\n" }.joined()
    }

    /// Each item's text in protoc's `--decode` output of a wrapper, its two-space indent removed;
    /// nil when the output is anything but `item {` … `}` blocks.
    static func items(ofDecodedText text: String) -> [String]? {
        var items: [String] = []
        var open: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            switch (line, open) {
            case ("item {", nil): open = []
            case ("}", let lines?): items.append(lines.joined(separator: "\n")); open = nil
            case ("", nil): continue
            case (_, var lines?) where line.hasPrefix("  "): lines.append(line.dropFirst(2)); open = lines
            default: return nil
            }
        }
        return open == nil ? items : nil
    }
}

extension CrossChecker {
    /// `batch` (cases of one type, wrapped by `wrapper` in `descriptorSet`): two protoc runs for
    /// all of them; each case they do not confirm both ways is then checked alone.
    func check(batch: [CheckCase], wrapper: String, descriptorSet: String) async throws(OracleCheckError) -> [CheckFailure?] {
        let expected = batch.map(Expected.init)
        let arguments = ["--descriptor_set_in=\(descriptorSet)"]
        let framed = DescriptorSetWriter.wrapperEncoding(items: expected.map(\.bytes))
        var texts: [String]?
        let encoded = try await protoc.run(arguments + ["--deterministic_output", "--encode=\(wrapper)"],
                                           input: Array(ProtocBatches.text(expected.map(\.text)).utf8))
        if encoded.status == 0, encoded.stdout == framed {
            let decoded = try await protoc.run(arguments + ["--decode=\(wrapper)"], input: framed)
            if decoded.status == 0, let items = ProtocBatches.items(ofDecodedText: String(decoding: decoded.stdout, as: UTF8.self)),
               items.count == expected.count {
                texts = items
            }
        }
        var outcomes: [CheckFailure?] = []
        for (index, one) in expected.enumerated() {
            if let text = texts?[index], (try? TextFormatParser(schemas: schemas).parse(text, as: one.name)) == one.item.message {
                outcomes.append(selfCheck(one, protocText: text))
            } else {
                outcomes.append(try await check(one.item))
            }
        }
        return outcomes
    }
}
