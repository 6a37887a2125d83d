// The protogen command, as a library so it can be tested without a process.

import Foundation
import ProtoSchema

public enum ProtoGen {
    public static let usage = """
        usage: protogen facades --descriptor-set FILE.pb --c-module CMODULE --swift-out DIR
                                [--all-types | --prune-sources DIR ...]
               protogen catalog --descriptor-set FILE.pb --facade-module MODULE --swift-out DIR
                                [--proto-dir-hint DIR]
        """

    /// Runs a command line (without the program name); returns the process exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        do {
            let written = try run(arguments)
            for line in written { print(line) }
            return 0
        } catch {
            FileHandle.standardError.write(Data("protogen: \(error)\n".utf8))
            return 1
        }
    }

    /// Parsed `facades` options.
    public struct FacadeOptions: Equatable, Sendable {
        public var descriptorSet: String
        public var cModule: String
        public var swiftOut: String
        public var allTypes: Bool
        public var pruneSources: [String]
    }

    public static func parse(_ arguments: [String]) throws(GeneratorError) -> FacadeOptions {
        guard arguments.first == "facades" else { throw .usage(usage) }
        var options = FacadeOptions(descriptorSet: "", cModule: "", swiftOut: "", allTypes: false, pruneSources: [])
        var rest = arguments.dropFirst()
        func value(_ flag: String) throws(GeneratorError) -> String {
            guard let v = rest.popFirst(), !v.hasPrefix("--") else { throw .usage("\(flag) needs a value\n\(usage)") }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--descriptor-set": options.descriptorSet = try value(flag)
            case "--c-module": options.cModule = try value(flag)
            case "--swift-out": options.swiftOut = try value(flag)
            case "--all-types": options.allTypes = true
            case "--prune-sources":
                options.pruneSources.append(try value(flag))
                while let next = rest.first, !next.hasPrefix("--") { options.pruneSources.append(next); rest.removeFirst() }
            default: throw .usage("unknown argument \(flag)\n\(usage)")
            }
        }
        if options.descriptorSet.isEmpty || options.cModule.isEmpty || options.swiftOut.isEmpty {
            throw .usage(usage)
        }
        if options.allTypes == !options.pruneSources.isEmpty {
            throw .usage("give exactly one of --all-types and --prune-sources\n\(usage)")
        }
        return options
    }

    /// Generates facades in memory (no file system access beyond what `selection` needed).
    public static func facades(schema: SchemaSet, cModule: String, selection: TypeSelection) throws(GeneratorError) -> [GeneratedFile] {
        let plan = try FacadePlan(schema: schema, selection: selection)
        return try FacadeEmitter(plan: plan, cModule: cModule).files()
    }

    /// Runs the command; returns one summary line per file written or removed.
    @discardableResult
    public static func run(_ arguments: [String]) throws(GeneratorError) -> [String] {
        if arguments.first == "catalog" { return try runCatalog(arguments) }
        let options = try parse(arguments)
        let schema: SchemaSet
        do { schema = try SchemaSet(contentsOf: options.descriptorSet) } catch { throw .schema(error) }
        let selection: TypeSelection = options.allTypes
            ? .all : .spelled(try SourceScanner.identifiers(in: options.pruneSources))
        let files = try facades(schema: schema, cModule: options.cModule, selection: selection)
        return try OutputFolder(path: options.swiftOut).replaceGenerated(with: files)
    }
}
