// Map fields of NanopbField: reading a repeated entry message into a dictionary, and writing a
// dictionary as entries in key order. Layout and ownership rules: NanopbField.swift.
//
// Size: these are generic over the key, the value and the C entry struct, and the facades call
// them without specialising them (the runtime's bodies are not inlinable), so the dictionary
// building and the key sort exist once in a binary instead of once per map field. A facade's map
// accessor is only the closure that reads or writes one entry's two members.

import CNanopb

@_spi(NanopbFacade) extension NanopbField {
    /// A map field as a dictionary. `entry` reads the key and value of one entry (a typed `pointee`
    /// read in the facade, so the load is instrumented under the sanitizers). A key that occurs
    /// twice on the wire keeps its last value.
    public static func map<E, K: Hashable, V>(
        _ elements: UnsafeMutablePointer<E>?, _ count: pb_size_t, _ entry: (UnsafeMutablePointer<E>) -> (K, V)
    ) -> [K: V] {
        let slots = buffer(elements, count)
        var map: [K: V] = [:]
        for index in slots.indices {
            // SAFETY: `index` is below the `count` initialised entries at `elements` (see `buffer`).
            let (key, value) = entry(slots.baseAddress! + index)
            map[key] = value
        }
        return map
    }

    /// Replaces a map field with `map`, written in ascending key order so that equal dictionaries
    /// encode to equal bytes. `fill` stores one key and value into a zeroed entry and returns false
    /// when it could not (out of memory), which keeps the old map. Entries are released with
    /// `descriptor`, the entry message's.
    public static func storing<K: Comparable, V, E>(
        map: [K: V], descriptor: pb_msgdesc_t, replacing old: UnsafeMutablePointer<E>?, count oldCount: pb_size_t,
        fill: (K, V, UnsafeMutablePointer<E>) -> Bool
    ) -> (UnsafeMutablePointer<E>?, pb_size_t) {
        storing(sortedEntries: map.sorted { $0.key < $1.key }, descriptor: descriptor, replacing: old, count: oldCount, fill: fill)
    }

    /// Replaces a map field keyed by `bool` (false before true; Bool is not Comparable).
    public static func storing<V, E>(
        map: [Bool: V], descriptor: pb_msgdesc_t, replacing old: UnsafeMutablePointer<E>?, count oldCount: pb_size_t,
        fill: (Bool, V, UnsafeMutablePointer<E>) -> Bool
    ) -> (UnsafeMutablePointer<E>?, pb_size_t) {
        storing(sortedEntries: map.sorted { !$0.key && $1.key }, descriptor: descriptor, replacing: old, count: oldCount, fill: fill)
    }

    static func storing<K, V, E>(
        sortedEntries entries: [(key: K, value: V)], descriptor: pb_msgdesc_t, replacing old: UnsafeMutablePointer<E>?,
        count oldCount: pb_size_t, fill: (K, V, UnsafeMutablePointer<E>) -> Bool
    ) -> (UnsafeMutablePointer<E>?, pb_size_t) {
        storing(entries: entries.count, descriptor: descriptor, replacing: old, count: oldCount) { index, entry in
            fill(entries[index].key, entries[index].value, entry)
        }
    }
}
