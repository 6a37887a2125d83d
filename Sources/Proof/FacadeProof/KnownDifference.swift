// Deliberate differences between what the facades (nanopb) write for an exemplar and the oracle's
// canonical encoding. Each is a rule over the schema, not a list of exemplars, so it holds for any
// schema; the proof counts the exemplars each rule covers, and a difference no rule explains fails.

import ProtoOracle
import ProtoSchema

/// A rule explaining why facade bytes may differ from the canonical encoding of an exemplar.
public struct KnownDifference: Sendable, Hashable {
    public let id: String
    /// Why nanopb differs, and why it is not a facade bug.
    public let reason: String
    /// The row of docs/deviations.md this rule is an instance of.
    public let deviation: Int

    /// nanopb's encoder writes every repeated number, bool and enum packed: `encode_array` packs
    /// whenever the type is packable, ignoring `[packed = false]` and proto2's unpacked default.
    /// Decoders must accept both forms, so the message is the same; the bytes differ. Compared
    /// through `BinaryEncodingOptions.nanopb` (`packing: .allPackable`).
    public static let packsEveryRepeatedNumber = KnownDifference(
        id: "packs-every-repeated-number",
        reason: "nanopb writes every packable repeated field packed, even [packed = false] and proto2 unpacked fields",
        deviation: 6)

    public static let all: [KnownDifference] = [packsEveryRepeatedNumber]

    /// The rules that apply to a message: those whose fields it sets (root and nested).
    public static func affecting(_ message: DynamicMessage) -> Set<KnownDifference> {
        var found: Set<KnownDifference> = []
        visit(message) { field, content in
            if case .repeated = content, field.type.isPackable, !field.isPacked { found.insert(packsEveryRepeatedNumber) }
        }
        return found
    }

    /// Calls `body` for every present field of `message` and of every submessage in it.
    public static func visit(_ message: DynamicMessage, _ body: (FieldSchema, FieldContent) -> Void) {
        for number in message.presentFieldNumbers {
            guard let field = message.field(number: number), let content = message.content(number: number) else { continue }
            body(field, content)
            switch content {
            case .single(let value): if let inner = value.messageValue { visit(inner, body) }
            case .repeated(let values): for value in values { if let inner = value.messageValue { visit(inner, body) } }
            case .map(let map): for (_, value) in map.entries { if let inner = value.messageValue { visit(inner, body) } }
            }
        }
    }
}
