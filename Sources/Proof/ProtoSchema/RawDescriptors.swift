/// Direct decodings of the descriptor.proto messages the schema model needs. Fields not listed
/// here (source info, service definitions, most options) are skipped. Field numbers are those of
/// google/protobuf/descriptor.proto.

struct RawField {
    var name = "", number: Int32 = 0, label: Int32 = 1, type: Int32 = 0
    var typeName: String?, extendee: String?, defaultValue: String?, jsonName: String?
    var oneofIndex: Int32?, proto3Optional = false, packed: Bool?

    init(_ r: inout DescriptorReader) throws(SchemaError) {
        try r.forEachField { (r: inout DescriptorReader, number, wire) throws(SchemaError) in
            switch (number, wire) {
            case (1, 2): name = try r.string()
            case (2, 2): extendee = try r.string()
            case (3, 0): self.number = try r.int32()
            case (4, 0): label = try r.int32()
            case (5, 0): type = try r.int32()
            case (6, 2): typeName = try r.string()
            case (7, 2): defaultValue = try r.string()
            case (8, 2):  // FieldOptions
                var o = try r.nested()
                try o.forEachField { (o: inout DescriptorReader, n, w) throws(SchemaError) in
                    if n == 2, w == 0 { packed = try o.bool() } else { try o.skip(wireType: w) }
                }
            case (9, 0): oneofIndex = try r.int32()
            case (10, 2): jsonName = try r.string()
            case (17, 0): proto3Optional = try r.bool()
            default: try r.skip(wireType: wire)
            }
        }
    }
}

struct RawEnum {
    var name = "", values: [(String, Int32)] = [], allowAlias = false

    init(_ r: inout DescriptorReader) throws(SchemaError) {
        try r.forEachField { (r: inout DescriptorReader, number, wire) throws(SchemaError) in
            switch (number, wire) {
            case (1, 2): name = try r.string()
            case (2, 2):
                var v = try r.nested()
                var valueName = "", valueNumber: Int32 = 0
                try v.forEachField { (v: inout DescriptorReader, n, w) throws(SchemaError) in
                    switch (n, w) {
                    case (1, 2): valueName = try v.string()
                    case (2, 0): valueNumber = try v.int32()
                    default: try v.skip(wireType: w)
                    }
                }
                values.append((valueName, valueNumber))
            case (3, 2):  // EnumOptions
                var o = try r.nested()
                try o.forEachField { (o: inout DescriptorReader, n, w) throws(SchemaError) in
                    if n == 2, w == 0 { allowAlias = try o.bool() } else { try o.skip(wireType: w) }
                }
            default: try r.skip(wireType: wire)
            }
        }
    }
}

struct RawMessage {
    var name = "", fields: [RawField] = [], extensions: [RawField] = []
    var nested: [RawMessage] = [], enums: [RawEnum] = [], oneofNames: [String] = []
    var mapEntry = false, extensionRanges: [ClosedRange<Int32>] = []

    init(_ r: inout DescriptorReader) throws(SchemaError) {
        try r.forEachField { (r: inout DescriptorReader, number, wire) throws(SchemaError) in
            switch (number, wire) {
            case (1, 2): name = try r.string()
            case (2, 2): var s = try r.nested(); fields.append(try RawField(&s))
            case (3, 2): var s = try r.nested(); nested.append(try RawMessage(&s))
            case (4, 2): var s = try r.nested(); enums.append(try RawEnum(&s))
            case (5, 2):  // ExtensionRange: start inclusive, end exclusive
                var s = try r.nested()
                var start: Int32 = 0, end: Int32 = 0
                try s.forEachField { (s: inout DescriptorReader, n, w) throws(SchemaError) in
                    switch (n, w) {
                    case (1, 0): start = try s.int32()
                    case (2, 0): end = try s.int32()
                    default: try s.skip(wireType: w)
                    }
                }
                if end > start { extensionRanges.append(start...(end - 1)) }
            case (6, 2): var s = try r.nested(); extensions.append(try RawField(&s))
            case (7, 2):  // MessageOptions
                var o = try r.nested()
                try o.forEachField { (o: inout DescriptorReader, n, w) throws(SchemaError) in
                    if n == 7, w == 0 { mapEntry = try o.bool() } else { try o.skip(wireType: w) }
                }
            case (8, 2):
                var s = try r.nested()
                var oneofName = ""
                try s.forEachField { (s: inout DescriptorReader, n, w) throws(SchemaError) in
                    if n == 1, w == 2 { oneofName = try s.string() } else { try s.skip(wireType: w) }
                }
                oneofNames.append(oneofName)
            default: try r.skip(wireType: wire)
            }
        }
    }
}

struct RawFile {
    var name = "", package = "", syntax = "", dependencies: [String] = [], publicDependencies: [Int32] = []
    var messages: [RawMessage] = [], enums: [RawEnum] = [], extensions: [RawField] = []
    var swiftPrefix: String?

    init(_ r: inout DescriptorReader) throws(SchemaError) {
        try r.forEachField { (r: inout DescriptorReader, number, wire) throws(SchemaError) in
            switch (number, wire) {
            case (1, 2): name = try r.string()
            case (2, 2): package = try r.string()
            case (3, 2): dependencies.append(try r.string())
            case (10, _): try r.repeatedInt32(wireType: wire, into: &publicDependencies)
            case (4, 2): var s = try r.nested(); messages.append(try RawMessage(&s))
            case (5, 2): var s = try r.nested(); enums.append(try RawEnum(&s))
            case (7, 2): var s = try r.nested(); extensions.append(try RawField(&s))
            case (8, 2):  // FileOptions
                var o = try r.nested()
                try o.forEachField { (o: inout DescriptorReader, n, w) throws(SchemaError) in
                    if n == 39, w == 2 { swiftPrefix = try o.string() } else { try o.skip(wireType: w) }
                }
            case (12, 2): syntax = try r.string()
            case (14, 0): _ = try r.varint(); syntax = "editions"  // `edition` enum (newer protoc)
            case (13, 2): _ = try r.string(); syntax = "editions"  // `edition` string (older protoc)
            default: try r.skip(wireType: wire)
            }
        }
    }
}
