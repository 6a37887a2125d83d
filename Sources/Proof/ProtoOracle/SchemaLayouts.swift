import ProtoSchema
import Synchronization

/// The layout of every message type of one `SchemaSet`, built once and shared by every decoder,
/// text parser, exemplar builder and random-message generator working on that set.
///
/// Building the layouts (field tables, map entries, enum lookups) used to happen on every decode
/// and was most of the oracle's decode cost; with this cache a decode only reads them.
/// Immutable after `init`, so one instance is safe to share between threads.
public final class SchemaLayouts: Sendable {
    /// The schema set the layouts describe.
    public let schemas: SchemaSet
    /// Layouts by message full name: every message of `schemas`, map entries included.
    let layouts: [String: MessageLayout]

    /// Builds the layout of every message of `schemas`.
    public init(_ schemas: SchemaSet) {
        self.schemas = schemas
        var layouts: [String: MessageLayout] = [:]
        layouts.reserveCapacity(schemas.messages.count)
        for message in schemas.messages { layouts[message.fullName] = MessageLayout(message, in: schemas) }
        self.layouts = layouts
    }

    /// An empty message of `fullName`; nil when the set does not declare it.
    public func empty(_ fullName: String) -> DynamicMessage? { layouts[fullName].map(DynamicMessage.init(layout:)) }

    // MARK: Process-wide cache

    /// The shared layouts of `schemas`, built on first use.
    ///
    /// `SchemaSet` is a value without an identity of its own, so the cache keys an entry by the
    /// address of the set's `messages` storage and keeps that array alive inside the entry: while
    /// the entry exists its storage cannot be freed, so no other set can ever show the same
    /// address (copies of one set share the storage and therefore the entry). The cache holds at
    /// most `capacity` sets and forgets all of them when full (tests compile many small schemas;
    /// a real run uses one or two).
    public static func shared(for schemas: SchemaSet) -> SchemaLayouts {
        let key = Key(schemas)
        if let hit = cache.withLock({ $0[key] }) { return hit.layouts }
        let built = SchemaLayouts(schemas)
        return cache.withLock { entries in
            if let raced = entries[key] { return raced.layouts }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(pinned: schemas.messages, layouts: built)
            return built
        }
    }

    static let capacity = 64

    private struct Key: Hashable {
        let address: UInt
        let count: Int
        init(_ schemas: SchemaSet) {
            // SAFETY: only the address is taken, never dereferenced; `Entry.pinned` keeps the
            // storage alive for as long as the key is in the cache.
            address = schemas.messages.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            count = schemas.messages.count
        }
    }

    private struct Entry: Sendable {
        /// Keeps the keyed storage alive (see `shared(for:)`).
        let pinned: [MessageSchema]
        let layouts: SchemaLayouts
    }

    private static let cache = Mutex<[Key: Entry]>([:])
}
