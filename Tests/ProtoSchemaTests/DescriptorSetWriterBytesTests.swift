// The descriptor-set writer's exact output on hand-built sets: every field it does not rewrite is
// written back as read (each wire type, at every level), custom options (1000 and up) and extension
// declarations are dropped, dependencies without C are renumbered, and a nested value that does not
// parse is written empty.

import Testing
@testable import ProtoSchema

private typealias W = HandBuiltWire

@Suite struct DescriptorSetWriterBytesTests {
    /// Fields the writer never rewrites: a varint, a fixed32, a fixed64 and a group.
    static let unknown = W.int(19, 300) + W.tag(20, 5) + [1, 2, 3, 4] + W.tag(21, 1) + [1, 2, 3, 4, 5, 6, 7, 8]
        + W.tag(22, 3) + W.int(1, 1) + W.tag(22, 4)
    /// An `*Options` message: 999 is the last number kept, 1000 the first custom option dropped.
    static let options = W.int(3, 1) + W.int(999, 2) + W.int(1000, 3) + W.len(50001, [7])
    static let standardOptions = W.int(3, 1) + W.int(999, 2)

    /// `f.proto` in package `p` as read (`rewritten: false`) or as the writer must write it with
    /// field `f` and oneof `o` of `p.M` renamed, and only x.proto and z.proto of its imports with C.
    static func file(rewritten r: Bool) -> [UInt8] {
        let options = r ? standardOptions : Self.options
        let renamed = W.text(1, r ? "f_" : "f") + W.int(3, 1) + unknown + W.len(8, options)
        let plain = W.text(1, "g") + W.int(3, 2) + W.text(6, ".p.M")
        let oneof = W.text(1, r ? "o_" : "o") + unknown + W.len(2, options)
        let value = W.text(1, "V") + W.int(2, 0) + unknown + W.len(3, options)
        let enumType = W.text(1, "E") + W.len(2, value) + unknown + W.len(3, options)
        let declared = r ? [] : W.len(6, plain)  // an extension declared in a message
        let nested = W.text(1, "N") + W.len(2, plain) + declared + unknown + W.len(7, options)
        let message = W.text(1, "M") + W.len(2, renamed) + W.len(2, plain) + W.len(8, oneof) + W.len(8, W.text(1, "k"))
            + W.len(3, nested) + W.len(4, enumType) + W.len(5, W.int(1, 100) + W.int(2, 200)) + declared + unknown
            + W.len(7, options)
        let body = W.len(4, message) + W.len(5, enumType) + (r ? [] : W.len(7, plain)) + W.len(8, options) + unknown
            + W.text(12, "proto3")
        let head = W.text(1, "f.proto") + W.text(2, "p")
        guard r else {
            let imports = W.text(3, "x.proto") + W.text(3, "y.proto") + W.text(3, "z.proto")
            // public: x, z; weak, packed: y, z, an index past the imports and -1.
            let indices = W.int(10, 0) + W.int(10, 2) + W.len(11, W.varint(1) + W.varint(2) + W.varint(3) + W.varint(UInt64(bitPattern: -1)))
            return head + imports + indices + body
        }
        return head + body + W.text(3, "x.proto") + W.text(3, "z.proto") + W.int(10, 0) + W.int(10, 1) + W.int(11, 1)
    }

    @Test func everyFieldIsWrittenAsReadExceptWhatTheWriterRewrites() throws {
        let writer = try DescriptorSetWriter(descriptorSet: W.len(1, Self.file(rewritten: false)), renames: [
            .init(kind: .field, scope: "p.M", protoName: "f", cName: "f_"),
            .init(kind: .oneof, scope: "p.M", protoName: "o", cName: "o_"),
        ])
        #expect(writer.fileNames == ["f.proto"])
        let written = try writer.set(for: "f.proto", withC: ["x.proto", "z.proto", "f.proto"])
        #expect(written == W.len(1, Self.file(rewritten: true)))
    }

    @Test func nestedValuesThatDoNotParseAreWrittenEmpty() throws {
        let bad: [UInt8] = [0x00]  // a tag of field 0
        func file(_ value: [UInt8]) -> [UInt8] {
            let message = W.text(1, "M") + W.len(2, value) + W.len(8, value) + W.len(4, value) + W.len(7, value)
            let enumType = W.text(1, "E") + W.len(2, value) + W.len(3, value)
            return W.text(1, "f.proto") + W.len(4, message) + W.len(4, value) + W.len(5, enumType) + W.len(5, value) + W.len(8, value)
        }
        let writer = try DescriptorSetWriter(descriptorSet: W.len(1, file(bad)), renames: [])
        #expect(try writer.set(for: "f.proto", withC: []) == W.len(1, file([])))
    }

    @Test func aTypeRenameReachesOnlyTheFileWithoutAPackage() throws {
        let types = W.len(4, W.text(1, "int")) + W.len(5, W.text(1, "long"))
        let set = W.len(1, W.text(1, "a.proto") + types) + W.len(1, W.text(1, "q.proto") + W.text(2, "q") + types)
        let writer = try DescriptorSetWriter(descriptorSet: set, renames: [
            .init(kind: .type, scope: "int", protoName: "int", cName: "int_"),
            .init(kind: .type, scope: "long", protoName: "long", cName: "long_"),
        ])
        #expect(try writer.set(for: "a.proto", withC: []) == W.len(1, W.text(1, "a.proto") + W.len(4, W.text(1, "int_")) + W.len(5, W.text(1, "long_"))))
        #expect(try writer.set(for: "q.proto", withC: []) == W.len(1, W.text(1, "q.proto") + W.text(2, "q") + types))
    }

    @Test func aFileThatImportsItselfIsWrittenOnceAndLast() throws {
        let own = W.text(1, "f.proto") + W.text(3, "f.proto")
        let set = W.len(1, W.text(1, "g.proto")) + W.len(1, own)
        let writer = try DescriptorSetWriter(descriptorSet: set, renames: [])
        #expect(try writer.set(for: "f.proto", withC: ["f.proto", "g.proto"]) == W.len(1, own))
    }

    @Test func aFileTheSetLacksIsRefusedByName() throws {
        let writer = try DescriptorSetWriter(descriptorSet: W.len(1, W.text(1, "a.proto")), renames: [])
        #expect(throws: SchemaError.malformed(reason: "the plan names b.proto, which is not in the descriptor set", offset: 0)) {
            try writer.set(for: "b.proto", withC: ["a.proto"])
        }
    }
}
