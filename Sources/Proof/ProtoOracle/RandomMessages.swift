import ProtoSchema

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast, seedable generator. The same seed always
/// yields the same sequence on every platform, so a failing case is replayed from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state.
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (`bound` > 0); modulo bias is irrelevant for test generation.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability `numerator / denominator`.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool { below(denominator) < numerator }
}

/// Seeded random messages of any schema, valid by construction: proto3 strings are UTF-8, closed
/// enum fields (every enum field of a proto2 message) hold declared numbers, oneofs have at most
/// one member, required fields are set (unless a cycle of required message fields makes that
/// impossible).
///
/// Shape limits: messages nest at most `maxDepth` levels below the root; repeated fields and maps
/// hold at most `maxElements` values; strings and bytes are at most `maxStringLength` long.
///
/// Value mix, per scalar: about a third boundary values (0, ±1, min, max, powers of two), the
/// rest uniformly random bits. Floats include ±0, ±infinity, subnormals and the canonical NaN;
/// NaN payloads only when `allowNaNPayloads` (text format cannot carry them). Strings mix ASCII
/// with 2-, 3- and 4-byte UTF-8 and escapes-prone bytes (quotes, backslash, newline, NUL);
/// proto2 strings sometimes hold invalid UTF-8 (proto2 strings may). Open enums sometimes hold
/// undeclared numbers.
public struct RandomMessages: Sendable {
    public let schemas: SchemaSet
    public let seed: UInt64
    public var maxDepth: Int = 4
    public var maxElements: Int = 3
    public var maxStringLength: Int = 12
    public var allowNaNPayloads: Bool = false
    /// The generator's state; advances with every message.
    private var rng: SplitMix64
    /// Message-type lookups.
    private var layouts: LayoutCache
    /// Types `next()` cycles through: every message except map entries, in schema order.
    private let cycle: [String]
    /// How many messages `next()` has produced.
    public private(set) var produced = 0

    public init(schemas: SchemaSet, seed: UInt64, messages: [String]? = nil) {
        self.schemas = schemas
        self.seed = seed
        rng = SplitMix64(seed: seed)
        layouts = LayoutCache(schemas)
        cycle = messages ?? schemas.messages.filter { !$0.isMapEntry }.map(\.fullName)
    }

    /// The next message, of type `messages[produced % count]`; nil when there are no types.
    public mutating func next() -> DynamicMessage? {
        guard !cycle.isEmpty else { return nil }
        let name = cycle[produced % cycle.count]
        produced += 1
        return message(of: name)
    }

    /// A random message of type `fullName`; nil when the schema set does not declare it.
    public mutating func message(of fullName: String) -> DynamicMessage? {
        message(fullName, depth: 0, requiredPath: [])
    }

    private mutating func message(_ fullName: String, depth: Int, requiredPath: [String]) -> DynamicMessage? {
        guard let layout = layouts.layout(fullName) else { return nil }
        var message = DynamicMessage(layout: layout)
        let schema = layout.schema
        var chosen: [Int: Int32?] = [:]
        for (index, oneof) in schema.oneofs.enumerated() where !oneof.isSynthetic {
            chosen[index] = rng.chance(3, in: 4) && !oneof.fieldNumbers.isEmpty
                ? oneof.fieldNumbers[rng.below(oneof.fieldNumbers.count)] : .some(nil)
        }
        for field in layout.sortedFields {
            if let index = field.oneofIndex, let choice = chosen[index] {
                guard choice == field.number else { continue }
            } else if field.label != .required, !rng.chance(1, in: 2) {
                continue
            }
            populate(field, into: &message, depth: depth, requiredPath: requiredPath + [fullName])
        }
        return message
    }

    private mutating func populate(_ field: FieldSchema, into message: inout DynamicMessage, depth: Int, requiredPath: [String]) {
        if let entry = message.layout.mapEntries[field.number] {
            var map = ProtoMap()
            for _ in 0..<rng.below(maxElements + 1) {
                guard let key = MapKey(scalar(entry.key, enumType: nil, proto3: entry.entry.syntax == .proto3)) else { continue }
                let value: ProtoValue?
                if entry.value.type == .message, let typeName = entry.value.typeName {
                    guard depth < maxDepth else { break }
                    value = self.message(typeName, depth: depth + 1, requiredPath: []).map(ProtoValue.message)
                } else {
                    value = scalar(entry.value, enumType: entry.valueEnum, proto3: entry.entry.syntax == .proto3)
                }
                if let value { map[key] = value }
            }
            message.setMap(number: field.number, map)
            return
        }
        let count = field.isRepeated ? rng.below(maxElements + 1) : 1
        var values: [ProtoValue] = []
        for _ in 0..<count {
            if let typeName = field.typeName, field.type == .message || field.type == .group {
                let required = field.label == .required
                // Past the depth limit only required fields recurse, and never around a cycle.
                guard depth < maxDepth || (required && !requiredPath.contains(typeName)) else { break }
                guard let inner = self.message(typeName, depth: depth + 1, requiredPath: required ? requiredPath : []) else { break }
                values.append(.message(inner))
            } else {
                values.append(scalar(field, enumType: message.layout.enumTypes[field.number], proto3: message.schema.syntax == .proto3))
            }
        }
        if field.isRepeated {
            message.setRepeated(number: field.number, values)
        } else if let value = values.first {
            message.set(number: field.number, value)
        }
    }

    private mutating func scalar(_ field: FieldSchema, enumType: EnumSchema?, proto3: Bool) -> ProtoValue {
        switch field.type {
        case .int32, .sint32, .sfixed32: return .int32(Int32(truncatingIfNeeded: integerBits(bits: 32)))
        case .int64, .sint64, .sfixed64: return .int64(Int64(bitPattern: integerBits(bits: 64)))
        case .uint32, .fixed32: return .uint32(UInt32(truncatingIfNeeded: integerBits(bits: 32)))
        case .uint64, .fixed64: return .uint64(integerBits(bits: 64))
        case .bool: return .bool(rng.chance(1, in: 2))
        case .float: return .float(randomFloat())
        case .double: return .double(randomDouble())
        case .string: return .string(randomText(allowInvalidUTF8: !proto3))
        case .bytes: return .bytes((0..<rng.below(maxStringLength + 1)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        case .enum:
            let values = enumType?.values ?? []
            // Undeclared numbers only where the field is open (proto3 file, as protoc 3.21 decides).
            if values.isEmpty || (proto3 && enumType?.isClosed == false && rng.chance(1, in: 8)) {
                return .enumValue(Int32(truncatingIfNeeded: integerBits(bits: 32)))
            }
            return .enumValue(values[rng.below(values.count)].number)
        case .message, .group: return .enumValue(0)  // not reached: callers handle messages
        }
    }

    /// Boundary values a third of the time, otherwise uniform bits; sign-extended from `bits`.
    private mutating func integerBits(bits: Int) -> UInt64 {
        let special: [UInt64] = [0, 1, 2, 127, 128, 255, 300, 16_383, 16_384, 1 << 31, (1 << 31) - 1, 1 << 32, 1 << 63, .max, .max - 1]
        let raw = rng.chance(1, in: 3) ? special[rng.below(special.count)] : rng.next() >> UInt64(rng.below(64))
        let negate = rng.chance(1, in: 4)
        let value = negate ? 0 &- raw : raw
        return bits == 64 ? value : UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: value)))
    }

    private mutating func randomFloat() -> Float {
        let special: [Float] = [0, -0.0, 1, -1, .infinity, -.infinity, .nan, .leastNonzeroMagnitude,
                                .greatestFiniteMagnitude, -.leastNormalMagnitude, 0.1, 1e-30]
        if rng.chance(1, in: 3) { return special[rng.below(special.count)] }
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
        return value.isNaN && !allowNaNPayloads ? .nan : value
    }

    private mutating func randomDouble() -> Double {
        let special: [Double] = [0, -0.0, 1, -1, .infinity, -.infinity, .nan, .leastNonzeroMagnitude,
                                 .greatestFiniteMagnitude, -.leastNormalMagnitude, 0.1, 1e300]
        if rng.chance(1, in: 3) { return special[rng.below(special.count)] }
        let value = Double(bitPattern: rng.next())
        return value.isNaN && !allowNaNPayloads ? .nan : value
    }

    private mutating func randomText(allowInvalidUTF8: Bool) -> [UInt8] {
        let pieces: [String] = ["a", "Z", "0", " ", "\"", "'", "\\", "\n", "\t", "\u{0}", "\u{7F}", "ü", "€", "😀", "ß", "字"]
        var out: [UInt8] = []
        for _ in 0..<rng.below(maxStringLength + 1) {
            out += Array(pieces[rng.below(pieces.count)].utf8)
        }
        if allowInvalidUTF8, rng.chance(1, in: 8) { out.append(0xFF) }
        return out
    }
}
