import ProtoSchema

/// Structure-aware mutation of decoded messages, for the `structure` fuzz target's custom mutator:
/// one edit per call at a random depth, of the kinds libprotobuf-mutator makes (add, remove or
/// change a field, copy a field's value onto another field of the same type, clone an element).
/// New values come from `RandomMessages`, so they are valid for their field (proto3 strings UTF-8,
/// closed enums declared); the raw-byte mutations of libFuzzer reach the invalid ones.
///
/// Every choice derives from the caller's generator, so a seed replays an edit exactly. Messages
/// grow by at most one random value per call, and the descent stops at `maxDescent` levels.
public struct StructureMutator: Sendable {
    public let schemas: SchemaSet
    /// Deepest submessage an edit reaches below the message it starts from.
    public var maxDescent = 16

    public init(schemas: SchemaSet) { self.schemas = schemas }

    /// The kinds of edit, for tests and statistics.
    public enum Edit: CaseIterable, Sendable { case add, remove, change, copy, clone }

    /// Applies one edit somewhere in `message` (at the top level or in a present submessage).
    public func mutate(_ message: inout DynamicMessage, _ random: inout SplitMix64) {
        mutate(&message, &random, depth: 0)
    }

    /// `first` with some of `second`'s fields (same type) copied in, or `first` unchanged when the
    /// types differ.
    public func crossOver(_ first: DynamicMessage, _ second: DynamicMessage, _ random: inout SplitMix64) -> DynamicMessage {
        guard first.fullName == second.fullName else { return first }
        var out = first
        for number in second.presentFieldNumbers where random.chance(1, in: 2) {
            guard let field = second.field(number: number), let content = second.content(number: number) else { continue }
            out.put(field, content)
        }
        return out
    }

    private func mutate(_ message: inout DynamicMessage, _ random: inout SplitMix64, depth: Int) {
        // Descend into a present submessage half of the time.
        let children = submessagePositions(message)
        if !children.isEmpty, depth < maxDescent, random.chance(1, in: 2) {
            let (number, index) = children[random.below(children.count)]
            guard let field = message.field(number: number) else { return }
            if let index {
                var values = message.repeated(number: number)
                guard var inner = values[index].messageValue else { return }
                mutate(&inner, &random, depth: depth + 1)
                values[index] = .message(inner)
                message.setRepeated(number: number, values)
            } else if var inner = message[number: number]?.messageValue {
                mutate(&inner, &random, depth: depth + 1)
                message.set(number: field.number, .message(inner))
            }
            return
        }
        apply(Edit.allCases[random.below(Edit.allCases.count)], to: &message, &random)
    }

    private func apply(_ edit: Edit, to message: inout DynamicMessage, _ random: inout SplitMix64) {
        let declared = message.schema.fields
        let present = message.presentFieldNumbers.compactMap { message.field(number: $0) }
        switch edit {
        case .add, .change:
            let pool = edit == .add || present.isEmpty ? declared : present
            guard !pool.isEmpty else { return }
            let field = pool[random.below(pool.count)]
            guard let content = donorContent(for: field, in: message.fullName, &random) else { return }
            if field.isRepeated, edit == .add, case let .repeated(values) = content {
                message.setRepeated(number: field.number, message.repeated(number: field.number) + values)
            } else {
                message.put(field, content)
            }
        case .remove:
            guard !present.isEmpty else { return }
            message.clear(number: present[random.below(present.count)].number)
        case .copy:
            guard !present.isEmpty else { return }
            let source = present[random.below(present.count)]
            let targets = declared.filter {
                $0.number != source.number && $0.type == source.type && $0.typeName == source.typeName
                    && $0.isRepeated == source.isRepeated && message.isMap($0) == message.isMap(source)
            }
            guard !targets.isEmpty, let content = message.content(number: source.number) else { return }
            message.put(targets[random.below(targets.count)], content)
        case .clone:
            let repeated = present.filter { $0.isRepeated && !message.isMap($0) }
            guard !repeated.isEmpty else { return }
            let field = repeated[random.below(repeated.count)]
            var values = message.repeated(number: field.number)
            values.insert(values[random.below(values.count)], at: random.below(values.count + 1))
            message.setRepeated(number: field.number, values)
        }
    }

    /// A value for `field` taken from a random message of its parent type (a few tries, since a
    /// random message sets each optional field half of the time).
    private func donorContent(for field: FieldSchema, in fullName: String, _ random: inout SplitMix64) -> FieldContent? {
        for _ in 0..<4 {
            var generator = RandomMessages(schemas: schemas, seed: random.next(), messages: [fullName])
            generator.maxDepth = 2
            if let donor = generator.next(), let content = donor.content(number: field.number) { return content }
        }
        return nil
    }

    /// Present message values: (field number, element index for repeated fields).
    private func submessagePositions(_ message: DynamicMessage) -> [(Int32, Int?)] {
        var positions: [(Int32, Int?)] = []
        for number in message.presentFieldNumbers {
            guard let field = message.field(number: number), field.type == .message || field.type == .group, !message.isMap(field) else { continue }
            switch message.content(number: number) {
            case .single?: positions.append((number, nil))
            case let .repeated(values)?: positions += values.indices.map { (number, $0) }
            default: break
            }
        }
        return positions
    }
}

extension DynamicMessage {
    /// Stores `content` in `field` through the public setters (oneof siblings cleared, presence
    /// normalised).
    mutating func put(_ field: FieldSchema, _ content: FieldContent) {
        switch content {
        case let .single(value): set(number: field.number, value)
        case let .repeated(values): setRepeated(number: field.number, values)
        case let .map(map): setMap(number: field.number, map)
        }
    }
}
