// Which files of a descriptor set protoc-gen-swift must generate for the SwiftProtobuf peer, and
// which message types SwiftProtobuf already ships compiled.

import ProtoSchema

/// The split of a schema between protoc-gen-swift and the SwiftProtobuf library.
///
/// The well-known types cannot be generated outside SwiftProtobuf (Any's generated code uses the
/// library's internal storage); they have not changed between the revisions, so the library's own
/// types stand for them. descriptor.proto is generated like any other file when its types are
/// judged: SwiftProtobuf ships a newer revision of it (Editions fields), and judging the set's own
/// revision through another would report schema differences as codec differences. A file whose
/// types nothing judges (nanopb.proto, or descriptor.proto imported for options and extendees) is
/// not generated: protoc-gen-swift names an extendee through the library's type either way, and
/// descriptor.proto's code alone takes half a minute to compile for every schema that imports it.
struct SwiftProtobufPlan: Equatable {
    /// The well-known type files whose Swift code is part of the SwiftProtobuf 1.38.1 library.
    static let shippedFiles: Set<String> = Set(
        ["any", "api", "duration", "empty", "field_mask", "source_context", "struct", "timestamp", "type", "wrappers"]
            .map { "google/protobuf/\($0).proto" })

    /// Files protoc-gen-swift generates, in the set's order.
    let generate: [String]
    /// SwiftProtobuf's Swift names (module-relative, e.g. `Google_Protobuf_Struct`) of every message
    /// of the shipped files, nested ones as `Outer.Inner`, map entries left out (they have no type).
    let shippedMessageTypes: [String]

    /// `judged`: the files whose types the proof judges (the facades' file closure); nil, every file.
    init(_ schema: SchemaSet, judged: Set<String>? = nil) {
        var generate: [String] = [], shipped: [String] = []
        for file in schema.files {
            guard Self.shippedFiles.contains(file.name) else {
                if judged?.contains(file.name) ?? true { generate.append(file.name) }
                continue
            }
            for name in file.messages { Self.appendSwiftNames(of: name, prefix: "Google_Protobuf_", in: schema, to: &shipped) }
        }
        self.generate = generate
        shippedMessageTypes = shipped
    }

    /// Appends the Swift name of message `fullName` and of its nested messages, depth first; the
    /// nesting of a descriptor set is finite, so the recursion ends.
    private static func appendSwiftNames(of fullName: String, prefix: String, in schema: SchemaSet, to names: inout [String]) {
        guard let message = schema.message(fullName), !message.isMapEntry else { return }
        let name = prefix + message.name
        names.append(name)
        for nested in message.nestedMessages { appendSwiftNames(of: nested, prefix: name + ".", in: schema, to: &names) }
    }
}
