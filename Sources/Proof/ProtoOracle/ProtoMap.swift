import ProtoSchema

/// A map key. Protobuf allows integral, bool and string keys; the cases group key types by Swift
/// representation exactly as `ProtoValue` does (string keys are raw bytes).
public enum MapKey: Hashable, Sendable {
    case int32(Int32)
    case int64(Int64)
    case uint32(UInt32)
    case uint64(UInt64)
    case bool(Bool)
    case string([UInt8])

    /// A string key holding the UTF-8 encoding of `text`.
    public static func text(_ text: String) -> MapKey { .string(Array(text.utf8)) }

    /// The key as a field value.
    public var value: ProtoValue {
        switch self {
        case let .int32(v): return .int32(v)
        case let .int64(v): return .int64(v)
        case let .uint32(v): return .uint32(v)
        case let .uint64(v): return .uint64(v)
        case let .bool(v): return .bool(v)
        case let .string(v): return .string(v)
        }
    }

    /// The key for a field value; nil for values that cannot be map keys.
    public init?(_ value: ProtoValue) {
        switch value {
        case let .int32(v): self = .int32(v)
        case let .int64(v): self = .int64(v)
        case let .uint32(v): self = .uint32(v)
        case let .uint64(v): self = .uint64(v)
        case let .bool(v): self = .bool(v)
        case let .string(v): self = .string(v)
        default: return nil
        }
    }

    /// The order Google's deterministic serialization sorts map entries in: numeric order for
    /// integers (signed or unsigned as the type is), `false < true`, and byte-wise (unsigned)
    /// lexicographic order for strings. Keys of different cases never share one map.
    static func deterministicOrder(_ a: MapKey, _ b: MapKey) -> Bool {
        switch (a, b) {
        case let (.int32(x), .int32(y)): return x < y
        case let (.int64(x), .int64(y)): return x < y
        case let (.uint32(x), .uint32(y)): return x < y
        case let (.uint64(x), .uint64(y)): return x < y
        case let (.bool(x), .bool(y)): return !x && y
        case let (.string(x), .string(y)): return x.lexicographicallyPrecedes(y)
        default: return a.caseIndex < b.caseIndex
        }
    }

    private var caseIndex: Int {
        switch self {
        case .int32: return 0
        case .int64: return 1
        case .uint32: return 2
        case .uint64: return 3
        case .bool: return 4
        case .string: return 5
        }
    }
}

/// The entries of one map field.
///
/// Invariants: `keys` holds each key of `storage` exactly once, in first-insertion order (setting
/// an existing key replaces its value in place). The order is kept so encoding is deterministic;
/// equality ignores it, as protobuf map semantics do.
public struct ProtoMap: Sendable, Equatable {
    /// Keys in insertion order.
    public private(set) var keys: [MapKey] = []
    private var storage: [MapKey: ProtoValue] = [:]

    public init() {}

    /// Builds a map from entries; a later duplicate key replaces the earlier value.
    public init(_ entries: [(MapKey, ProtoValue)]) {
        for (key, value) in entries { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Entries in insertion order.
    public var entries: [(key: MapKey, value: ProtoValue)] {
        keys.compactMap { key in storage[key].map { (key, $0) } }
    }

    /// The value for `key`; setting nil removes the entry.
    public subscript(key: MapKey) -> ProtoValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public static func == (lhs: ProtoMap, rhs: ProtoMap) -> Bool { lhs.storage == rhs.storage }
}
