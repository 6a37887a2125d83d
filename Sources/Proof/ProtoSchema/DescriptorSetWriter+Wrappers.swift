// A descriptor set with one more file: a message per given type that holds a repeated field of
// it, so a tool that reads one message per run (protoc --encode/--decode) can take many at once.

extension DescriptorSetWriter {
    /// `descriptorSet` (a serialized `FileDescriptorSet` defining every type in `types`) followed by
    /// one more proto2 file, `file` in `package`, importing the files those types are declared in.
    /// For the i-th type it declares `<package>.W<i>` with the single field
    /// `repeated <type> item = 1`; the result maps each type's full name to its wrapper's.
    ///
    /// The set's own files are kept byte for byte. The caller chooses `package` so that no type of
    /// the set is named like a wrapper; a clash makes the set unloadable for protoc, not wrong.
    public static func appendingWrappers(
        to descriptorSet: [UInt8], file: String, package: String, types: [(fullName: String, file: String)]
    ) -> (descriptorSet: [UInt8], wrappers: [String: String]) {
        var declaration = WireOutput()
        declaration.string(1, file)
        declaration.string(2, package)
        var imported = Set<String>()
        for type in types where imported.insert(type.file).inserted { declaration.string(3, type.file) }
        var wrappers: [String: String] = [:]
        for (index, type) in types.enumerated() {
            var field = WireOutput()
            field.string(1, "item")
            field.varint(3, 1)
            field.varint(4, 3)  // LABEL_REPEATED
            field.varint(5, 11)  // TYPE_MESSAGE
            field.string(6, "." + type.fullName)
            var message = WireOutput()
            message.string(1, "W\(index)")
            message.message(2, field.bytes)
            declaration.message(4, message.bytes)
            wrappers[type.fullName] = "\(package).W\(index)"
        }
        var set = WireOutput()
        set.message(1, declaration.bytes)
        return (descriptorSet + set.bytes, wrappers)
    }

    /// The encoding of a wrapper `appendingWrappers` declared, holding `items` (each an encoded
    /// message of its type) in order: what protoc writes for a wrapper's text.
    public static func wrapperEncoding(items: [[UInt8]]) -> [UInt8] {
        var out = WireOutput()
        for item in items { out.message(1, item) }
        return out.bytes
    }
}
