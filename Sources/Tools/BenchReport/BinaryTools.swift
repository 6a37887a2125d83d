// The binutils the size report runs (nm, strip, size, readelf), found on PATH and run through
// ProcessSupport (posix_spawn); a failure stops the report with the tool's own message.

import Foundation
import ProcessSupport

/// Why the bench report stopped.
public enum BenchReportError: Error, CustomStringConvertible, Equatable {
    /// A tool is not on PATH, or exited non-zero (its name, arguments and stderr).
    case toolFailed(String)
    /// An input file lacks what the report needs (which file, what is missing).
    case missingFigure(String)

    public var description: String {
        switch self {
        case .toolFailed(let why), .missingFigure(let why): return why
        }
    }
}

/// Runs binutils and returns their standard output.
enum BinaryTools {
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard let path = ChildProcess.executableOnPath(tool) else {
            throw BenchReportError.toolFailed("\(tool) is not on PATH")
        }
        let result = try ChildProcess.run(path, arguments)
        guard result.status == 0 else {
            throw BenchReportError.toolFailed("\(tool) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderrText)")
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// Names defined by the `.o` files under `directory` (recursively); empty when it does not exist.
    static func definedSymbols(objectsUnder directory: String) throws -> Set<String> {
        var names = Set<String>()
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return names }
        var objects: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".o") { objects.append(relative) }
        }
        for relative in objects.sorted() {
            names.formUnion(SymbolAttributor.definedNames(nmOutput: try run("nm", ["--defined-only", directory + "/" + relative])))
        }
        return names
    }

    static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
