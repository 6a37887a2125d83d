/// A DNS-SD TXT record (RFC 6763 section 6): ordered `key=value` attributes, a key alone meaning
/// "present, no value". The role of NWTXTRecord.
///
/// Invariants: keys are 1 to 255 bytes of printable ASCII without `=` and are compared without
/// regard to case (section 6.4); a key appears once. On the wire each attribute is one string of
/// at most 255 bytes, prefixed by its length; an empty record is the single empty string.
public struct TXTRecord: Sendable, Hashable, CustomStringConvertible {
    /// One attribute: its key and its value (nil: the key alone, a boolean attribute).
    public struct Entry: Sendable, Hashable {
        public let key: String
        public let value: [UInt8]?
    }

    public private(set) var entries: [Entry] = []

    public init() {}

    /// The attributes of `dictionary`, in key order (so the same dictionary always gives the same
    /// bytes). Throws for a key or attribute the wire cannot carry.
    public init(_ dictionary: [String: String]) throws(DiscoveryError) {
        for key in dictionary.keys.sorted() { try set(key, Array(dictionary[key]!.utf8)) }
    }

    /// Sets (or replaces, keeping its place) the attribute `key`; nil value: the key alone.
    public mutating func set(_ key: String, _ value: [UInt8]?) throws(DiscoveryError) {
        let keyBytes = Array(key.utf8)
        guard !keyBytes.isEmpty, keyBytes.allSatisfy({ (0x20 ... 0x7E).contains($0) && $0 != UInt8(ascii: "=") }) else {
            throw .invalidArgument("TXT key \"\(key)\": 1 or more printable ASCII characters, no '='")
        }
        guard keyBytes.count + (value.map { $0.count + 1 } ?? 0) <= 255 else {
            throw .invalidArgument("TXT attribute \"\(key)\": key, '=' and value take more than 255 bytes")
        }
        let entry = Entry(key: key, value: value)
        if let index = entries.firstIndex(where: { $0.key.lowercased() == key.lowercased() }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    /// The value of `key` as UTF-8 text; nil when absent, "" for a key alone.
    public subscript(key: String) -> String? {
        guard let entry = entries.first(where: { $0.key.lowercased() == key.lowercased() }) else { return nil }
        return String(decoding: entry.value ?? [], as: UTF8.self)
    }

    /// The record's wire form (DNSServiceRegister's txtRecord).
    public var bytes: [UInt8] {
        guard !entries.isEmpty else { return [0] }
        var out: [UInt8] = []
        for entry in entries {
            let string = Array(entry.key.utf8) + (entry.value.map { [UInt8(ascii: "=")] + $0 } ?? [])
            out.append(UInt8(string.count))
            out += string
        }
        return out
    }

    /// Reads a record off the wire, as a receiver must (section 6.4): empty strings are skipped, a
    /// string starting with `=` or not readable as a key is ignored, a string running past the end
    /// is dropped, and of a repeated key the first counts.
    public init(decoding wire: [UInt8]) {
        var index = 0
        while index < wire.count {
            let length = Int(wire[index])
            index += 1
            guard length > 0, index + length <= wire.count else { index += length; continue }
            let string = Array(wire[index ..< index + length])
            index += length
            let equals = string.firstIndex(of: UInt8(ascii: "="))
            let key = String(decoding: string[..<(equals ?? string.endIndex)], as: UTF8.self)
            guard !key.isEmpty, self[key] == nil else { continue }
            try? set(key, equals.map { Array(string[($0 + 1)...]) })
        }
    }

    public var description: String {
        entries.map { entry in entry.value.map { "\(entry.key)=\(String(decoding: $0, as: UTF8.self))" } ?? entry.key }
            .joined(separator: " ")
    }
}
