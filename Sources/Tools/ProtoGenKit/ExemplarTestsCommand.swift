// `protogen exemplar-tests`: the exemplar conformance inputs for a test target (see
// ExemplarTestEmitter). Parsed and run here; ProtoGen.run dispatches to it.

import ProtoSchema

extension ProtoGen {
    public static let exemplarTestsUsage = """
        usage: protogen exemplar-tests --descriptor-set FILE.pb --facade-module MODULE --swift-out DIR
                                       [--proto-dir-hint DIR]
        """

    /// Parsed `exemplar-tests` options.
    public struct ExemplarTestsOptions: Equatable, Sendable {
        public var descriptorSet: String
        /// Module of the facades the generated code imports and builds with.
        public var facadeModule: String
        public var swiftOut: String
        /// The schema folder relative to the package root, recorded for the tests.
        public var protoDirectoryHint: String?
    }

    public static func parseExemplarTests(_ arguments: [String]) throws(GeneratorError) -> ExemplarTestsOptions {
        guard arguments.first == "exemplar-tests" else { throw .usage(exemplarTestsUsage) }
        var options = ExemplarTestsOptions(descriptorSet: "", facadeModule: "", swiftOut: "", protoDirectoryHint: nil)
        var rest = arguments.dropFirst()
        func value(_ flag: String) throws(GeneratorError) -> String {
            guard let v = rest.popFirst(), !v.hasPrefix("--") else { throw .usage("\(flag) needs a value\n\(exemplarTestsUsage)") }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--descriptor-set": options.descriptorSet = try value(flag)
            case "--facade-module": options.facadeModule = try value(flag)
            case "--swift-out": options.swiftOut = try value(flag)
            case "--proto-dir-hint": options.protoDirectoryHint = try value(flag)
            default: throw .usage("unknown argument \(flag)\n\(exemplarTestsUsage)")
            }
        }
        if options.descriptorSet.isEmpty || options.facadeModule.isEmpty || options.swiftOut.isEmpty {
            throw .usage(exemplarTestsUsage)
        }
        return options
    }

    /// Generates the exemplar test inputs in memory, for facades generated with `--all-types`.
    public static func exemplarTests(schema: SchemaSet, facadeModule: String, protoDirectoryHint: String?) throws(GeneratorError) -> [GeneratedFile] {
        let plan = try FacadePlan(schema: schema, selection: .all)
        return try ExemplarTestEmitter(plan: plan, facadeModule: facadeModule, protoDirectoryHint: protoDirectoryHint).files()
    }

    static func runExemplarTests(_ arguments: [String]) throws(GeneratorError) -> [String] {
        let options = try parseExemplarTests(arguments)
        let schema: SchemaSet
        do { schema = try SchemaSet(contentsOf: options.descriptorSet) } catch { throw .schema(error) }
        let files = try exemplarTests(schema: schema, facadeModule: options.facadeModule, protoDirectoryHint: options.protoDirectoryHint)
        return try OutputFolder(path: options.swiftOut).replaceGenerated(with: files)
    }
}
