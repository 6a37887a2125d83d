// The one generic message type every generated facade is a typealias of, and its Builder.

import CNanopb

/// An immutable protobuf message backed by a nanopb C struct.
///
/// Every message type of every schema is this one generic struct (`typealias Pkg_Msg =
/// NanopbMsg<pkg_Msg>`); generated code adds only field accessors. A value is either
///   - *owning*: `_owner` is the box that allocated the struct `_pointer` points to, or
///   - a *view*: `_pointer` points at a struct nested inside another message's allocation and
///     `_owner` is that message's box, which the view keeps alive.
/// Copying a value only retains the box: there are no setters, so nothing can observe a
/// difference between sharing and copying. Build values with `with { }`, derive them with
/// `modifying { }`, detach a long-lived view from its parent with `owned()`.
public struct NanopbMsg<Storage: NanopbStorage>: @unchecked Sendable {
    // @unchecked Sendable: `_pointer` is not Sendable, but it points into memory owned by `_owner`
    // (a Sendable box) that no one writes once a message exists; see NanopbBox.

    /// Keeps the allocation `_pointer` points into alive.
    var _owner: NanopbBox
    /// The C struct. SAFETY: points into `_owner`'s allocation (at its start when owning), which
    /// lives as long as this value; the memory is not written while any message can see it.
    @_spi(NanopbFacade) public let _pointer: UnsafeMutablePointer<Storage>

    init(owner: NanopbBox, pointer: UnsafeMutablePointer<Storage>) {
        _owner = owner
        _pointer = pointer
    }

    /// Takes ownership of a box made for `Storage`.
    @usableFromInline
    init(box: NanopbBox) {
        self.init(owner: box, pointer: box.typed(Storage.self))
    }

    /// The empty message (every field absent). Shares one allocation per message type.
    public init() {
        self.init(box: Storage._emptyBox)
    }

    /// True when this value owns its allocation; false for a view into a parent message.
    public var isOwning: Bool { UnsafeMutableRawPointer(_pointer) == _owner.raw }

    /// Builds a message: `Pkg_Msg.with { $0.name = "x" }`.
    public static func with<E: Error>(_ body: (inout Builder) throws(E) -> Void) throws(E) -> Self {
        var builder = Builder(box: NanopbBox(emptyOf: Storage.self))
        try body(&builder)
        return builder.build()
    }

    /// Returns a message with the changes `body` makes. Consumes `self`: when this value was the
    /// only reference to an owning allocation, the changes are made in place; otherwise (shared,
    /// or a view) the message is copied once for the whole batch. Pass the receiver with `consume`
    /// (or as a `consuming` parameter's last use) to make the in-place path possible.
    public consuming func modifying<E: Error>(_ body: (inout Builder) throws(E) -> Void) throws(E) -> Self {
        let inPlace = isOwning && isKnownUniquelyReferenced(&_owner)
        var builder = Builder(box: inPlace ? _owner : _copyBox())
        try body(&builder)
        return builder.build()
    }

    /// An owning message equal to this one: `self` when it already owns its allocation, a copy
    /// detached from the parent when it is a view. Store `owned()` values long-term, so a small
    /// view does not pin its parent's whole tree.
    public func owned() -> Self {
        isOwning ? self : Self(box: _copyBox())
    }

    /// A view of a struct nested in this message's allocation (zero-copy), or the shared empty
    /// value when the field is absent.
    @_spi(NanopbFacade) public func _view<Child: NanopbStorage>(_ child: UnsafeMutablePointer<Child>?) -> NanopbMsg<Child> {
        guard let child else { return NanopbMsg<Child>() }
        return NanopbMsg<Child>(owner: _owner, pointer: child)
    }

    /// Views of the elements of a repeated message field of this message.
    @_spi(NanopbFacade) public func _views<Child: NanopbStorage>(
        _ elements: UnsafeMutablePointer<Child>?, _ count: pb_size_t
    ) -> [NanopbMsg<Child>] {
        guard let elements, count > 0 else { return [] }
        // SAFETY: nanopb allocates a repeated field as one array of `count` structs (`_count` and
        // the pointer are written together by the decoder and by the runtime's setters).
        return (0..<Int(count)).map { NanopbMsg<Child>(owner: _owner, pointer: elements + $0) }
    }

    /// The box this value keeps alive (owning or parent). For tests that pin storage identity.
    @_spi(NanopbFacade) public var _box: NanopbBox { _owner }

    /// A fresh box holding a deep copy, made by an encode/decode round trip (nanopb has no clone,
    /// and two trees must never share a pointer both would free). On failure the copy is reported
    /// and is empty: an empty value is less damaging than one aliasing another tree.
    func _copyBox() -> NanopbBox {
        let box = NanopbBox(emptyOf: Storage.self)
        if let error = NanopbWire.copy(from: _pointer, into: box.typed(Storage.self)) {
            NanopbDiagnostics.report("copy of \(Storage._swiftName)", error)
        }
        return box
    }

    /// Builder for a message: the only thing that can write a message's storage. `~Copyable` and
    /// consumed by `build()`, so no handle that can write survives publication.
    public struct Builder: ~Copyable {
        let _box: NanopbBox
        /// The struct being built. Stored, not computed from `_box`: the same shape every accessor
        /// reads, and it keeps the builder's accessors free of a dynamic cast.
        @_spi(NanopbFacade) public let _pointer: UnsafeMutablePointer<Storage>

        init(box: NanopbBox) {
            _box = box
            _pointer = box.typed(Storage.self)
        }

        /// Publishes the message. The builder is consumed; its storage is immutable from now on.
        public consuming func build() -> NanopbMsg<Storage> {
            NanopbMsg(owner: _box, pointer: _pointer)
        }
    }
}

extension NanopbMsg: Equatable {
    /// Equal when the canonical encodings are equal. nanopb writes fields in number order and
    /// repeated and map elements in stored order, so maps built in different orders by the
    /// runtime (which sorts keys) compare equal, but decoded maps keep their wire order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs._pointer == rhs._pointer { return true }
        guard let left = try? lhs.serializedBytes(), let right = try? rhs.serializedBytes() else {
            return false  // unencodable (e.g. a missing required field): equal only to itself
        }
        return left == right
    }
}

extension NanopbMsg: Hashable {
    public func hash(into hasher: inout Hasher) {
        if let bytes = try? serializedBytes() { hasher.combine(bytes) } else { hasher.combine(-1) }
    }
}

extension NanopbMsg: CustomStringConvertible {
    public var description: String { Storage._describe(self) }
}
