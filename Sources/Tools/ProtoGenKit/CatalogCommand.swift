// `protogen catalog`: a schema's catalog module for the proof (see CatalogEmitter). Parsed and run
// here; ProtoGen.run dispatches to it.

import ProtoSchema

extension ProtoGen {
    public static let catalogUsage = """
        usage: protogen catalog --descriptor-set FILE.pb --facade-module MODULE --swift-out DIR
                                       [--proto-dir-hint DIR]
        """

    /// Parsed `catalog` options.
    public struct CatalogOptions: Equatable, Sendable {
        public var descriptorSet: String
        /// Module of the facades the generated code imports and builds with.
        public var facadeModule: String
        public var swiftOut: String
        /// The schema folder relative to the package root, recorded for the tests.
        public var protoDirectoryHint: String?
    }

    public static func parseCatalog(_ arguments: [String]) throws(GeneratorError) -> CatalogOptions {
        guard arguments.first == "catalog" else { throw .usage(catalogUsage) }
        var options = CatalogOptions(descriptorSet: "", facadeModule: "", swiftOut: "", protoDirectoryHint: nil)
        var rest = arguments.dropFirst()
        func value(_ flag: String) throws(GeneratorError) -> String {
            guard let v = rest.popFirst(), !v.hasPrefix("--") else { throw .usage("\(flag) needs a value\n\(catalogUsage)") }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--descriptor-set": options.descriptorSet = try value(flag)
            case "--facade-module": options.facadeModule = try value(flag)
            case "--swift-out": options.swiftOut = try value(flag)
            case "--proto-dir-hint": options.protoDirectoryHint = try value(flag)
            default: throw .usage("unknown argument \(flag)\n\(catalogUsage)")
            }
        }
        if options.descriptorSet.isEmpty || options.facadeModule.isEmpty || options.swiftOut.isEmpty {
            throw .usage(catalogUsage)
        }
        return options
    }

    /// Generates the catalog module in memory, for facades generated with `--all-types`.
    public static func catalog(schema: SchemaSet, facadeModule: String, protoDirectoryHint: String?) throws(GeneratorError) -> [GeneratedFile] {
        let plan = try FacadePlan(schema: schema, selection: .all)
        return try CatalogEmitter(plan: plan, facadeModule: facadeModule, protoDirectoryHint: protoDirectoryHint).files()
    }

    static func runCatalog(_ arguments: [String]) throws(GeneratorError) -> [String] {
        let options = try parseCatalog(arguments)
        let schema: SchemaSet
        do { schema = try SchemaSet(contentsOf: options.descriptorSet) } catch { throw .schema(error) }
        let files = try catalog(schema: schema, facadeModule: options.facadeModule, protoDirectoryHint: options.protoDirectoryHint)
        return try OutputFolder(path: options.swiftOut).replaceGenerated(with: files)
    }
}
